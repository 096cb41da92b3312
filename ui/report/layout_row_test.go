package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestRecommendNamesRowLayout: a row the matcher runs with another
// strategy than the header's figure (auto GPUs: FSDP over 4 V100s where
// one GPU of 16 GB does not hold the 20.75 GiB asked for) names it and its
// VRAM per GPU in a strategy column, and the header says its figure is the
// layout asked for. A new user read "VRAM 20.75 GiB per GPU on 1 GPU"
// over a best row of 4×V100 (Qwen3-8B LoRA, seq 2048, batch 1,
// checkpointing, 20M tokens × 3 epochs) that nowhere said FSDP. Rows that
// run the asked layout leave the cell empty; without such a row the
// table has no strategy column (TestOfferBorderline's tables).
func TestRecommendNamesRowLayout(t *testing.T) {
	rec, base := layoutRec() // recwide_test.go
	w := base.Workload
	// DDP replicates what one GPU holds: not another layout.
	ddp := rec.Offers[0]
	ddp.Strategy = model.DDP
	if got := OfferLayoutIn(nil, &ddp, &w); got != "" {
		t.Errorf("a DDP row under a 1-GPU header names %q, want nothing", got)
	}
	// Without a row in another layout: no strategy column, the plain header.
	one := rec
	one.Offers = rec.Offers[1:]
	var b bytes.Buffer
	if err := WriteRecommend(&b, &Renderer{Profile: colorprofile.NoTTY, Plain: true}, &one, &base, 10, 0); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, "VRAM 20.75 GiB per GPU on 1 GPU (each offer uses the GPU count it shows); ranked by job\n") || strings.Contains(got, "strategy") {
		t.Errorf("every row in the asked layout:\n%s", got)
	}
	// Every row in one other layout: the header gives the rows' figure and
	// names the asked one's beside it (walk49: "VRAM 182.33 GiB per GPU on
	// 8 GPUs as asked" over rows that all said FSDP ×8, 33.64 GiB/GPU).
	fsdp := rec
	fsdp.Offers = rec.Offers[:1]
	for _, tc := range []struct {
		lang *i18n.Printer
		auto bool // no --gpus: the asked figure is not "as asked"
		want string
	}{
		{nil, false, "VRAM 12.25 GiB per GPU on 4 GPUs with FSDP, the layout every row uses (DDP as asked needs 20.75 GiB per GPU); ranked by job\n"},
		{i18n.New(language.SimplifiedChinese), false, "显存每卡 12.25 GiB，共 4 块 GPU，采用 FSDP，即每一行所用的布局（按所要求的 DDP 需每卡 20.75 GiB）；按作业费用排序\n"},
		{nil, true, "VRAM 12.25 GiB per GPU on 4 GPUs with FSDP, the layout every row uses (DDP on 1 GPU needs 20.75 GiB per GPU); ranked by job\n"},
	} {
		fsdp.AutoGPUs = tc.auto
		var b bytes.Buffer
		if err := WriteRecommend(&b, &Renderer{Profile: colorprofile.NoTTY, Plain: true, Lang: tc.lang}, &fsdp, &base, 10, 0); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); !strings.Contains(got, tc.want) {
			t.Errorf("every row FSDP: want the header %q in\n%s", tc.want, got)
		}
	}
	for _, tc := range []struct {
		lang *i18n.Printer
		want string
	}{
		{nil, `Qwen3 8B · lora · bf16 · adamw · 1 GPU · pytorch
batch 1 × 2048 tokens · activation checkpointing · LoRA r=16 on q,k,v,o
VRAM 20.75 GiB per GPU on 1 GPU before the search picks GPUs (each offer uses the GPU count it shows; the strategy column names another layout and its VRAM per GPU); ranked by job
no gradient accumulation given: the micro-batch of 1 is per GPU, so the global batch is 1 × each offer's GPUs (--grad-accum fixes it)
2 offers of 2 priced

provider        instance                         region  GPUs         $/h    $/month  job time  job cost  headroom  strategy
primeintellect  datacrunch__4xV100_16GB__20__90  FI      4×v100-16gb  $0.55     $402     2.6 h     $1.44       19%  FSDP ×4, 12.25 GiB/GPU
seeweb          ECS1GPU11                        it-fr2  1×a30        $0.29     $212     8.0 h     $2.31        9%

best: primeintellect datacrunch__4xV100_16GB__20__90 in FI: $0.55 per hour, $402 per month, 2.6 h and $1.44 for the job (on-demand)
`},
		{i18n.New(language.SimplifiedChinese), `Qwen3 8B · LoRA 微调 · bf16 · adamw · 1 块 GPU · pytorch
批大小 1 × 2048 token · 梯度检查点 · LoRA r=16，作用于 q,k,v,o
显存每卡 20.75 GiB，共 1 块 GPU，按搜索选定 GPU 数之前的布局计（每个报价按其所示 GPU 数计；策略一列给出报价所用的其他布局及其每卡显存）；按作业费用排序
未给出梯度累积：微批次 1 按每卡计，全局批大小为 1 × 各报价的 GPU 数（用 --grad-accum 可固定它）
2 个有价格的报价中，2 个报价入选

云厂商          实例                             地域    GPU          $/小时  $/月  作业时长  作业费用  余量  策略
primeintellect  datacrunch__4xV100_16GB__20__90  FI      4×v100-16gb   $0.55  $402  2.6 小时     $1.44   19%  FSDP ×4，每卡 12.25 GiB
seeweb          ECS1GPU11                        it-fr2  1×a30         $0.29  $212  8.0 小时     $2.31    9%

最佳：primeintellect datacrunch__4xV100_16GB__20__90（FI）：每小时 $0.55，每月 $402，作业耗时 2.6 小时，费用 $1.44（按需实例）
`},
	} {
		var b bytes.Buffer
		r := &Renderer{Profile: colorprofile.NoTTY, Plain: true, Lang: tc.lang}
		if err := WriteRecommend(&b, r, &rec, &base, 10, 0); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
	}
}
