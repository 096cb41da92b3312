"""A stand-in vllm package for the probe's tests: find_spec finds it."""
