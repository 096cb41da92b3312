// Package probescript writes the probe script (`gpuplan export --format
// probe`): one self-contained Python file that runs a few steps of a
// launch plan on the rented GPU (Train) or starts vllm serve with a
// serving deployment's flags and times its planned load (Serve), and
// prints what it measured as one JSON line that model/probe reads back.
// The plan goes into the script (probe.py, embedded) as one JSON string
// literal, with the launch files' recipe, the model's shape and
// gpuplan's estimate; its keys are the calibration suite's.
//
// It imports model, model/probe and model/launch (the Plan and Serve it
// probes, as the launch files run them); launch does not import it, so
// the callers pick it for launch.FormatProbe. Like model it is plain Go:
// no terminal UI, no file or network access. Errors wrap launch.ErrPlan.
package probescript
