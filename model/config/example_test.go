package config_test

import (
	"fmt"

	"github.com/gpuplan/gpuplan/model/config"
)

func ExampleParseQuantity() {
	for _, s := range []string{"7B", "110M", "1.28M", "2T"} {
		v, _ := config.ParseQuantity(s)
		fmt.Printf("%s = %.4g\n", s, v)
	}
	// Output:
	// 7B = 7e+09
	// 110M = 1.1e+08
	// 1.28M = 1.28e+06
	// 2T = 2e+12
}
