// Package stack advises the software stack for one GPU (Advise): the CUDA
// toolkit and Linux driver it needs, the PyTorch wheel to install and the
// NGC container image to run, whether it computes bf16 and fp8 natively,
// and for AMD GPUs the ROCm wheels; and it knows the PyTorch wheel
// variants (Wheels, CheckWheel, IndexURL). model/launch writes its advice
// into the launch files and their notes.
//
// It imports model only. Like model it is plain Go: no terminal UI, no
// file or network access; every version rule cites its source.
package stack
