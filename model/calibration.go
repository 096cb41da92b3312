package model

// Calibration is one published throughput measurement the default MFUs are
// checked against: running Compute on the case with DefaultMFU must give
// the published figure within 20% (data/calibration_test.go).
type Calibration struct {
	Case      string    // what was measured
	Model     string    // catalog model key
	GPU       string    // catalog GPU key
	GPUs      int       // GPUs in the measurement
	Task      Task      // train or finetune
	Precision Precision // as published (amp = amp-fp16 on V100, amp-bf16 on A100)
	Batch     int       // micro-batch per GPU
	SeqLen    int       // tokens per sample (text)
	ImageSize int       // pixels (vision)
	// Published is samples per second for all GPUs, or, when Tokens > 0,
	// the GPU-hours to train on Tokens tokens.
	Published float64
	Tokens    float64
	Source    string
}

// Calibrations are the cases behind the MFU defaults. Sources:
// NVIDIA/DeepLearningExamples PyTorch ResNet-50 v1.5 README "Training
// performance results" (pytorch-21.03 container, DALI, 224 px) and BERT
// README "Pre-training" / "Fine-tuning" tables (pytorch-21.11), and the
// Llama 2 model card's pre-training GPU-hours (meta-llama/llama
// MODEL_CARD.md; Touvron et al., 2023, Table 2: 2.0T tokens, 4k context;
// the GPU count is not published, and any count above one gives the same
// GPU-hours here).
var Calibrations = []Calibration{
	{Case: "ResNet-50 v1.5, 1×A100 80GB, AMP, batch 256", Model: "resnet50", GPU: "a100-80gb", GPUs: 1, Task: TaskTrain, Precision: AMPFP16, Batch: 256, ImageSize: 224, Published: 2470,
		Source: "DeepLearningExamples PyTorch/Classification/ConvNets/resnet50v1.5/README.md, Training performance: NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "ResNet-50 v1.5, 8×A100 80GB, AMP, batch 256", Model: "resnet50", GPU: "a100-80gb", GPUs: 8, Task: TaskTrain, Precision: AMPFP16, Batch: 256, ImageSize: 224, Published: 16621,
		Source: "DeepLearningExamples resnet50v1.5 README, Training performance: NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "ResNet-50 v1.5, 1×A100 80GB, TF32, batch 256", Model: "resnet50", GPU: "a100-80gb", GPUs: 1, Task: TaskTrain, Precision: TF32, Batch: 256, ImageSize: 224, Published: 938,
		Source: "DeepLearningExamples resnet50v1.5 README, Training performance: NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "ResNet-50 v1.5, 1×V100 16GB, AMP, batch 256", Model: "resnet50", GPU: "v100-16gb", GPUs: 1, Task: TaskTrain, Precision: AMPFP16, Batch: 256, ImageSize: 224, Published: 1200,
		Source: "DeepLearningExamples resnet50v1.5 README, Training performance: NVIDIA DGX-1 16GB (8x V100 16GB)"},
	{Case: "ResNet-50 v1.5, 1×V100 16GB, FP32, batch 112", Model: "resnet50", GPU: "v100-16gb", GPUs: 1, Task: TaskTrain, Precision: FP32, Batch: 112, ImageSize: 224, Published: 367,
		Source: "DeepLearningExamples resnet50v1.5 README, Training performance: NVIDIA DGX-1 16GB (8x V100 16GB)"},
	{Case: "BERT-large pre-training phase 1 (seq 128), 1×A100 80GB, AMP, batch 256", Model: "bert-large", GPU: "a100-80gb", GPUs: 1, Task: TaskTrain, Precision: AMPFP16, Batch: 256, SeqLen: 128, Published: 580,
		Source: "DeepLearningExamples PyTorch/LanguageModeling/BERT/README.md, Pre-training NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "BERT-large pre-training phase 1 (seq 128), 1×A100 80GB, TF32, batch 128", Model: "bert-large", GPU: "a100-80gb", GPUs: 1, Task: TaskTrain, Precision: TF32, Batch: 128, SeqLen: 128, Published: 317,
		Source: "DeepLearningExamples BERT README, Pre-training NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "BERT-large SQuAD fine-tuning (seq 384), 1×A100 80GB, AMP, batch 32", Model: "bert-large", GPU: "a100-80gb", GPUs: 1, Task: TaskFinetune, Precision: AMPFP16, Batch: 32, SeqLen: 384, Published: 110.5,
		Source: "DeepLearningExamples BERT README, Fine-tuning NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "BERT-large SQuAD fine-tuning (seq 384), 8×A100 80GB, TF32, batch 32", Model: "bert-large", GPU: "a100-80gb", GPUs: 8, Task: TaskFinetune, Precision: TF32, Batch: 32, SeqLen: 384, Published: 469.8,
		Source: "DeepLearningExamples BERT README, Fine-tuning NVIDIA DGX A100 (8x A100 80GB)"},
	{Case: "BERT-large SQuAD fine-tuning (seq 384), 1×V100 32GB, FP32, batch 8", Model: "bert-large", GPU: "v100-32gb", GPUs: 1, Task: TaskFinetune, Precision: FP32, Batch: 8, SeqLen: 384, Published: 12,
		Source: "DeepLearningExamples BERT README, Fine-tuning NVIDIA DGX-1 With 32G"},
	{Case: "Llama 2 7B pre-training, 2.0T tokens, A100 80GB, bf16", Model: "llama-2-7b", GPU: "a100-80gb", GPUs: 2048, Task: TaskTrain, Precision: AMPBF16, Batch: 1, SeqLen: 4096, Tokens: 2e12, Published: 184320,
		Source: "meta-llama/llama MODEL_CARD.md, CO2 emissions during pretraining (GPU hours); Touvron et al. 2023 Table 2"},
	{Case: "Llama 2 13B pre-training, 2.0T tokens, A100 80GB, bf16", Model: "llama-2-13b", GPU: "a100-80gb", GPUs: 2048, Task: TaskTrain, Precision: AMPBF16, Batch: 1, SeqLen: 4096, Tokens: 2e12, Published: 368640,
		Source: "meta-llama/llama MODEL_CARD.md; Touvron et al. 2023 Table 2"},
	{Case: "Llama 2 70B pre-training, 2.0T tokens, A100 80GB, bf16", Model: "llama-2-70b", GPU: "a100-80gb", GPUs: 2048, Task: TaskTrain, Precision: AMPBF16, Batch: 1, SeqLen: 4096, Tokens: 2e12, Published: 1720320,
		Source: "meta-llama/llama MODEL_CARD.md; Touvron et al. 2023 Table 2"},
}
