"""A fake `vllm serve` for the probe's tests (model/launch/probe_test.go).

It logs the lines vLLM's V1 engine logs at start-up (KV cache size, model
loading), records its argv and pid in the working directory (the last
server's in fake-vllm-argv.json and fake-vllm.pid; each server's, with its
CUDA_VISIBLE_DEVICES, in fake-vllm-port-PORT.json and .pid, and a line per
completion request in fake-vllm-port-PORT.requests), and serves /health,
/metrics and streamed /v1/completions on --port until killed. The figures
are made up.
"""

import http.server
import json
import os
import sys

args = sys.argv[1:]
port = int(args[args.index("--port") + 1])
with open("fake-vllm-argv.json", "w") as f:
    json.dump(args, f)
with open("fake-vllm.pid", "w") as f:
    f.write(str(os.getpid()))
with open("fake-vllm-port-%d.json" % port, "w") as f:
    json.dump({"argv": args, "pid": os.getpid(), "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}, f)
with open("fake-vllm-port-%d.pid" % port, "w") as f:
    f.write(str(os.getpid()))
for line in (
    "INFO [gpu_model_runner.py:2001] Model loading took 14.99 GiB and 31.2 seconds",
    "INFO [gpu_worker.py:276] Available KV cache memory: 24.23 GiB",
    "INFO [kv_cache_utils.py:1087] GPU KV cache size: 211,712 tokens",
    "INFO [kv_cache_utils.py:1091] Maximum concurrency for 8,192 tokens per request: 25.84x",
):
    print(line, flush=True)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path == "/health":
            body = b""
        elif self.path == "/metrics":
            body = b'vllm:cache_config_info{block_size="16",num_gpu_blocks="13232"} 1.0\n'
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with open("fake-vllm-port-%d.requests" % port, "a") as f:
            f.write("%d\n" % req["max_tokens"])
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for i in range(req["max_tokens"]):
            self.wfile.write(b'data: {"choices":[{"text":"x"}]}\n\n')
        self.wfile.write(b'data: {"choices":[],"usage":{"completion_tokens":%d}}\n\n' % req["max_tokens"])
        self.wfile.write(b"data: [DONE]\n\n")


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
