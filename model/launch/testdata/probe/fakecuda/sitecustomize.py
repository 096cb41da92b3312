"""A fake torch.cuda for the probe's tests (model/launch/probe_test.go).

Python imports sitecustomize at start-up from PYTHONPATH; this one imports
the real (CPU) torch and replaces torch.cuda with a module that reports one
"Fake GPU" and fixed allocator figures. current_device() returns "cpu", so
the probe's torch.device(torch.cuda.current_device()) places every tensor
on the CPU while every CUDA-only call of the script goes through here.
"""

import sys
import types

import torch

GiB = 1 << 30
real = torch.cuda


class FakeCUDA(types.ModuleType):
    def __getattr__(self, name):  # what the fake does not define: torch's own (seeding, fork checks)
        return getattr(real, name)


fake = FakeCUDA("torch.cuda")
calls = {"allocated": 0}


class OutOfMemoryError(RuntimeError):
    pass


class Props:
    total_memory = 24 * GiB
    major, minor = 8, 6


class GradScaler:
    def __init__(self, *a, **k):
        calls["scaler"] = True

    def scale(self, loss):
        return loss

    def step(self, opt):
        opt.step()

    def update(self):
        pass


def memory_allocated(*a):
    calls["allocated"] += 1  # grows with every call, so each phase's delta is one GiB
    return calls["allocated"] * GiB


fake.OutOfMemoryError = OutOfMemoryError
fake.is_available = lambda: True
fake.set_device = lambda i: None
fake.current_device = lambda: "cpu"
fake.device_count = lambda: 1
fake.synchronize = lambda *a: None
fake.memory_allocated = memory_allocated
fake.reset_peak_memory_stats = lambda *a: None
fake.max_memory_allocated = lambda *a: 17 * GiB
fake.max_memory_reserved = lambda *a: 18 * GiB
fake.get_device_name = lambda *a: "Fake GPU"
fake.get_device_properties = lambda *a: Props()
fake.is_bf16_supported = lambda: True
class FakeAmp(types.ModuleType):
    def __getattr__(self, name):
        return getattr(real.amp, name)


fake.amp = FakeAmp("torch.cuda.amp")
fake.amp.GradScaler = GradScaler
torch.cuda = fake
sys.modules["torch.cuda"] = fake
torch.version.cuda = "12.4"
