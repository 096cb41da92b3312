package cloud

// containerClouds are the SkyPilot clouds of the catalog whose machines
// are containers the provider starts from an image, not VMs: a task's
// setup and run execute inside that container, where no Docker daemon
// runs, so a file for them must not `docker run`. Checked in
// skypilot-org/skypilot:
//
//   - runpod: sky/provision/runpod/utils.py launch creates a pod whose
//     image is resources.image_id (default runpod/base:1.0.2-ubuntu2204,
//     sky/clouds/runpod.py) and passes SkyPilot's sshd setup as the
//     container's arguments; docs/source/examples/docker-containers.rst:
//     "Running docker containers is not supported on RunPod" (RunPod's FAQ:
//     no Docker daemon in a pod), and an image with its own entrypoint "is
//     not compatible with RunPod due to limitations in the RunPod API, so
//     ensure that you choose a container with a default entrypoint (i.e.
//     /bin/bash)" (skypilot#3879, runpod/runpod-python#338).
//   - vast: sky/provision/vast/utils.py launch creates a Vast instance
//     from the image (create_instance image, onstart_cmd, env -p ports):
//     Vast instances are Docker containers on the host.
//   - daytona: sky/provision/daytona/utils.py launch_sandbox builds the
//     sandbox from "FROM <image>" (default daytonaio/sandbox:latest); the
//     provisioner creates container sandboxes, never VM ones.
//   - lium and yotta: pods from an image (sky/provision/lium/lium_utils.py
//     rent_node with a template's docker image; sky/provision/yotta/
//     yotta_utils.py launch with image and RunPod's setup command).
//
// Kubernetes pods are containers too ("On Kubernetes, running Docker
// runtime in a pod is not recommended"), but the catalog has no
// Kubernetes instances. Not checked: primeintellect, whose provider may
// hand out either.
var containerClouds = map[string]bool{"runpod": true, "vast": true, "daytona": true, "lium": true, "yotta": true}

// ContainerCloud reports whether SkyPilot runs a task on provider inside
// a container the provider starts from resources.image_id, with no
// Docker daemon in it (containerClouds): an image is then given as
// image_id: docker:IMAGE, and must start a shell, not its own server.
func ContainerCloud(provider string) bool { return containerClouds[provider] }
