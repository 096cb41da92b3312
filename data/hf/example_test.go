package hf_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
)

func ExampleParseConfig() {
	c, err := hf.ParseConfig([]byte(`{
		"model_type": "mistral", "torch_dtype": "bfloat16",
		"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
		"num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000,
		"max_position_embeddings": 32768, "tie_word_embeddings": false}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := c.Precision(model.TaskTrain)
	fmt.Printf("%.0f parameters, %s, up to %d tokens\n", c.Arch.ParamCount(), p, c.Arch.MaxPositions)
	// Output: 7241732096 parameters, amp-bf16, up to 32768 tokens
}

func ExampleParseSafetensorsHeader() {
	header := `{"__metadata__": {"format": "pt"},
		"wte.weight": {"dtype": "F32", "shape": [50257, 768], "data_offsets": [0, 154389504]},
		"h.0.attn.bias": {"dtype": "F32", "shape": [1, 1, 1024, 1024], "data_offsets": [154389504, 158583808]}}`
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	file = append(file, header...)
	// Only the header is read: the data need not be there when the size is unknown.
	n, err := hf.ParseSafetensorsHeader(bytes.NewReader(file), -1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d parameters (%d F32), %d buffer elements, %d bytes of data\n",
		n.Params, n.ByDType["F32"], n.Buffers, n.Bytes)
	// Output: 38597376 parameters (38597376 F32), 1048576 buffer elements, 158583808 bytes of data
}
