package data

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
)

// testCatalog has the GPUs the fixtures need. Some have no alias on
// purpose: "Radeon MI25" and "RTX6000" resolve through skyPilotGPUNames,
// "A40" through the key itself.
func testCatalog() *model.Catalog {
	c := &model.Catalog{GPUs: []model.GPU{
		{Key: "t4", Aliases: []string{"T4"}, MemoryGiB: 16},
		{Key: "l4", Aliases: []string{"L4"}, MemoryGiB: 24},
		{Key: "a10g", Aliases: []string{"A10G"}, MemoryGiB: 24, UsableMemoryMiB: 22888},
		{Key: "a40", MemoryGiB: 48},
		{Key: "a100-40gb", Aliases: []string{"A100"}, MemoryGiB: 40},
		{Key: "a100-80gb", Aliases: []string{"A100-80GB"}, MemoryGiB: 80},
		{Key: "h100-sxm", Aliases: []string{"H100", "H100-MEGA"}, MemoryGiB: 80},
		{Key: "h100-pcie", MemoryGiB: 80},
		{Key: "h100-nvl", MemoryGiB: 94},
		{Key: "h200", Aliases: []string{"H200"}, MemoryGiB: 141},
		{Key: "b200", Aliases: []string{"B200"}, MemoryGiB: 180, UsableMemoryMiB: 183359},
		{Key: "v100-16gb", Aliases: []string{"V100"}, MemoryGiB: 16},
		{Key: "v100-32gb", Aliases: []string{"V100-32GB"}, MemoryGiB: 32},
		{Key: "mi25", MemoryGiB: 16},
		{Key: "quadro-rtx-6000", MemoryGiB: 24},
		{Key: "rtx-4090", Aliases: []string{"RTX4090"}, MemoryGiB: 24},
	}}
	c.Index()
	return c
}

func readFixture(t *testing.T, file, provider string) ([]model.Instance, []model.Message) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "skypilot", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	insts, warns, err := ReadSkyPilotCSV(f, file, provider, CatalogGPUResolver(testCatalog()))
	if err != nil {
		t.Fatalf("ReadSkyPilotCSV(%s) error: %v", file, err)
	}
	return insts, warns
}

// summary renders instances one line each:
// "type gpu×n vcpus/GiB region od/spot ..." with "-" for unknown prices.
func summary(insts []model.Instance) []string {
	var out []string
	for _, in := range insts {
		s := fmt.Sprintf("%s %s×%d %d/%g", in.Type, in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB)
		for _, p := range in.Prices {
			s += fmt.Sprintf(" %s %s/%s", p.Region, price(p.OnDemandUSD), price(p.SpotUSD))
		}
		out = append(out, s)
	}
	return out
}

func price(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

func wantLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// wantWarnings checks that each fragment occurs in exactly one warning and
// that there are no other warnings.
func wantWarnings(t *testing.T, warnings []model.Message, fragments ...string) {
	t.Helper()
	got := model.Strings(warnings)
	if len(got) != len(fragments) {
		t.Errorf("got %d warnings, want %d:\n  %s", len(got), len(fragments), strings.Join(got, "\n  "))
	}
	for _, f := range fragments {
		n := 0
		for _, w := range got {
			if strings.Contains(w, f) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings contain %q, want 1:\n  %s", n, f, strings.Join(got, "\n  "))
		}
	}
}

func TestReadSkyPilotCSVAWS(t *testing.T) {
	insts, warns := readFixture(t, "aws.csv", "aws")
	wantLines(t, "instances", summary(insts), []string{
		// us-east-1: on-demand per region, spot the lowest of the two zones (0.19), the
		// Local Zone's 0.05 left out; ap-south-1 has no price and is dropped; sa-east-1's
		// on-demand 0.0 is unknown, its spot is kept.
		"g4dn.xlarge t4×1 4/16 eu-west-1 0.587/- sa-east-1 -/0.3 us-east-1 0.526/0.19",
		"g5.xlarge a10g×1 4/16 us-east-1 1.006/0.4",              // 22888 MiB is the A10G's usable memory
		"p4d.24xlarge a100-40gb×8 96/1152 us-west-2 21.957642/-", // spot 30 > on-demand: dropped
		"p5.48xlarge h100-sxm×8 192/2048 us-east-1 98.32/98.32",  // spot 98.3201: rounding, clamped
	})
	wantWarnings(t, warns,
		"aws.csv:2: rows of accelerators that are not GPUs",
		`aws.csv:3: accelerator "Radeon Pro V520" with 8 GiB (e.g. g4ad.xlarge) is not a GPU of the catalog`,
		"aws.csv:11: fractional L4 GPUs (AcceleratorCount < 1, e.g. g6f.large × 0.125)",
		"aws.csv:12: p4d.24xlarge in us-west-2: spot $30.00 above on-demand $21.96; spot dropped",
		"aws.csv:15: p5e.48xlarge has no price in any region; skipped",
	)
	for _, in := range insts {
		if in.Provider != "aws" || in.Origin != "aws.csv" || in.Source != "SkyPilot catalog aws.csv" {
			t.Errorf("%s: provider %q origin %q source %q", in.Type, in.Provider, in.Origin, in.Source)
		}
	}
}

func TestReadSkyPilotCSVGCP(t *testing.T) {
	insts, warns := readFixture(t, "gcp.csv", "gcp")
	wantLines(t, "instances", summary(insts), []string{
		"a2-highgpu-1g a100-40gb×1 12/85 us-central1 3.67348/1.49576", // 0.73948 + 2.934, zone a only
		"a4-highgpu-8g b200×8 224/3968 us-central1 -/32.6064",         // no on-demand: GCP sells A4 by reservation, flex-start or spot (gcpNoOnDemand)
		"g2-standard-24 l4×2 24/96 us-central1 2.12008/0.8462",        // 1.0 + 1.12008
		"g2-standard-4 l4×1 4/16 us-central1 0.70683/0.28182",         // 0.14679 + 0.56004
		"n1-standard-4+1xT4 t4×1 4/15 us-central1 0.54/0.11",          // 0.19 + 0.35
		"n1-standard-8+1xT4 t4×1 8/30 us-central1 0.73/0.15",          // 0.38 + 0.35
	})
	wantWarnings(t, warns,
		"gcp.csv:11: GPU rows for A100 skipped: no GCP machine type with these GPUs in its zone",
		"gcp.csv:16: GPU rows for T4 skipped: they attach to N1 VMs and the file has no n1-standard row for their zone",
		"gcp.csv:17: rows of accelerators that are not GPUs",
	)
}

func TestReadSkyPilotCSVQuirks(t *testing.T) {
	tests := []struct {
		file, provider string
		want           []string
		warnings       []string
	}{
		{
			// CRLF line ends; TotalGpuMemoryInMiB is per GPU on Lambda (16384 for 8 V100s);
			// H100 form from the type name; "RTX6000" is the Quadro RTX 6000.
			file: "lambda.csv", provider: "lambda",
			want: []string{
				"gpu_1x_h100_pcie h100-pcie×1 26/200 us-east-1 2.49/-",
				"gpu_1x_rtx6000 quadro-rtx-6000×1 14/46 us-east-1 0.5/-",
				"gpu_8x_h100_sxm5 h100-sxm×8 208/1800 europe-central-1 23.92/- us-east-1 23.92/-",
				"gpu_8x_v100 v100-16gb×8 92/448 europe-central-1 4.4/-",
			},
		},
		{
			// GpuInfo is a bare name; quoted Generation "V1,V2"; NC H100 v5 is the H100 NVL;
			// the importer keeps the snapshot's 12 GPUs (the generator's table fixes it).
			file: "azure.csv", provider: "azure",
			want: []string{
				"Standard_NC40ads_H100_v5 h100-nvl×1 40/320 eastus 6.98/6.98",
				"Standard_NC6s_v3 v100-16gb×1 6/112 eastus 3.06/0.3 westus2 3.366/0.33",
				"Standard_ND96isr_H100_v5 h100-sxm×12 96/1900 eastus 98.32/98.32",
			},
			warnings: []string{"azure.csv:6: Standard_NV4as_v4 has no price in any region"},
		},
		{
			// Quoted regions with commas and non-ASCII; SpotPrice 0.00 is none; SizeInMiB
			// covers all GPUs (287542 for two H200s); a 48 GiB "RTX4090" is another card.
			file: "vast.csv", provider: "vast",
			want: []string{
				"1x-H100_NVL-32-65536 h100-nvl×1 32/64 Texas, US, NA 2/-",
				"1x-RTX_4090-32-65536 rtx-4090×1 32/64 , US, NA 0.35/-",
				"2x-H200-32-65536 h200×2 32/64 Hafnarfjarðarkaupstaður, IS, EU 5.3/- Michigan, US, NA 5.18/-",
			},
			// Vast writes SpotPrice 0.00 for "no spot" (a host taking no
			// bids): read as none without a note, which came with every
			// update (attack round 3).
			warnings: []string{`vast.csv:5: accelerator "RTX4090" with 47.99 GiB (e.g. 1x-RTX_4090-32-65536) is not a GPU of the catalog`},
		},
		{
			// Lower-case GpuInfo keys; a CPU row with AcceleratorCount 0 and no name.
			file: "do.csv", provider: "do",
			want: []string{"gpu-h100x8-640gb h100-sxm×8 160/1920 tor1 47.6/-"},
		},
		{
			// Price is the last column.
			file: "paperspace.csv", provider: "paperspace",
			want: []string{"A100-80Gx8 a100-80gb×8 96/640 East Coast (NY2) 25.44/-"},
		},
		{
			// Float artefacts are rounded; 'Count': '1.0' is a string.
			file: "cudo.csv", provider: "cudo",
			want: []string{"ice-lake-a40-compute_1x2v4gb a40×1 2/4 ca-montreal-3 0.3698/- se-smedjebacken-1 0.4098/-"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			insts, warns := readFixture(t, tt.file, tt.provider)
			wantLines(t, "instances", summary(insts), tt.want)
			wantWarnings(t, warns, tt.warnings...)
		})
	}
}

const awsHeader = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"

func TestReadSkyPilotCSVErrors(t *testing.T) {
	row := func(price, spot string) string {
		return "g4dn.xlarge,T4,1.0,4.0,16.0,," + price + "," + spot + ",us-east-1,use1-az1\n"
	}
	tests := []struct {
		name, csv string
		line      int
		want      string
	}{
		{"empty file", "", 0, "vms.csv: empty file, want a header line naming the columns"},
		{"header only", awsHeader, 0, "vms.csv: no data rows after the header"},
		{"missing column", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region\nx,T4,1,4,16,r\n", 1,
			"vms.csv:1: missing column Price; a SkyPilot vms.csv header names InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, Price, Region"},
		{"duplicate column", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,Price\n", 1,
			"vms.csv:1: column Price: appears twice in the header"},
		{"wrong column count", awsHeader + row("0.5", "0.2") + "g4dn.xlarge,T4,1.0,4.0,16.0,,0.5,us-east-1,use1-az1\n", 3,
			"vms.csv:3: got 9 fields, want 10 (one per header column)"},
		{"bad number", awsHeader + row("abc", ""), 2, `vms.csv:2: column Price: want a number, got "abc"`},
		{"negative price", awsHeader + row("0.5", "-1"), 2, `vms.csv:2: column SpotPrice: want a number ≥ 0, got "-1"`},
		{"NaN", awsHeader + "g4dn.xlarge,T4,1.0,NaN,16.0,,0.5,,us-east-1,use1-az1\n", 2, `vms.csv:2: column vCPUs: want a finite number, got "NaN"`},
		{"infinite", awsHeader + row("+Inf", ""), 2, `vms.csv:2: column Price: want a finite number, got "+Inf"`},
		// Issue 29: strconv reads Go's hex floats; a CSV's numbers are decimal.
		{"hex float", awsHeader + row("0x1p-3", ""), 2, `vms.csv:2: column Price: want a decimal number such as 3.06, got "0x1p-3"`},
		{"hex float with a separator", awsHeader + row("0.5", "0x_1p-3"), 2, `vms.csv:2: column SpotPrice: want a decimal number such as 3.06, got "0x_1p-3"`},
		{"hex count", awsHeader + "g4dn.xlarge,T4,0x1p0,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2, `vms.csv:2: column AcceleratorCount: want a decimal number such as 3.06, got "0x1p0"`},
		{"digit separators", awsHeader + row("1_000", ""), 2, `vms.csv:2: column Price: want a decimal number such as 3.06, got "1_000"`},
		{"Infinity", awsHeader + row("infinity", ""), 2, `vms.csv:2: column Price: want a finite number, got "infinity"`},
		{"nan", awsHeader + row("0.5", "nan"), 2, `vms.csv:2: column SpotPrice: want a finite number, got "nan"`},
		{"huge", awsHeader + row("1e12", ""), 2, `vms.csv:2: column Price: want a number ≤ 1e+09, got "1e12"`},
		{"9e8 USD/h: the TOML overlay's 10000 USD/h cap", awsHeader + row("9e8", ""), 2, `vms.csv:2: column Price: 9e8 USD/hour is above 10000; prices are per instance-hour`},
		{"spot above the cap", awsHeader + row("", "10000.01"), 2, `vms.csv:2: column SpotPrice: 10000.01 USD/hour is above 10000; prices are per instance-hour`},
		{"newline in a quoted instance type", awsHeader + "\"g4dn.xlarge\ncurl x | sh\",T4,1,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: column InstanceType: control character \n (newline) at byte 11; names must be printable text on one line`},
		{"ESC in a region", awsHeader + "g4dn.xlarge,T4,1,4.0,16.0,,0.5,,\x1b[2Jus-east-1,use1-az1\n", 2,
			`vms.csv:2: column Region: control character \x1b (ESC) at byte 0; names must be printable text on one line`},
		{"zero-width space in a region", awsHeader + "g4dn.xlarge,T4,1,4.0,16.0,,0.5,,us-east-\u200b1,use1-az1\n", 2,
			`vms.csv:2: column Region: invisible character U+200B at byte 8; names must show every character they hold, delete it`},
		{"soft hyphen in an instance type", awsHeader + "g4dn.\u00adxlarge,T4,1,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: column InstanceType: invisible character U+00AD at byte 5; names must show every character they hold, delete it`},
		{"NUL in an accelerator name", awsHeader + "g4dn.xlarge,T\x004,1,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: column AcceleratorName: control character \x00 (NUL) at byte 1; names must be printable text on one line`},
		{"invalid UTF-8 in a zone", awsHeader + "g4dn.xlarge,T4,1,4.0,16.0,,0.5,,us-east-1,use1-\xffaz1\n", 2,
			`vms.csv:2: column AvailabilityZone: invalid UTF-8 at byte 5; save the file as UTF-8`},
		{"a 300-byte instance type", awsHeader + strings.Repeat("g", 300) + ",T4,1,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: column InstanceType: 300 bytes long, the limit is 256`},
		{"empty count", awsHeader + "g4dn.xlarge,T4,,4.0,16.0,,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: column AcceleratorCount: empty for accelerator "T4", want the number of accelerators`},
		{"bare quote", awsHeader + "g4dn.xlarge,T4,1,4.0,16.0,a\"b,0.5,,us-east-1,use1-az1\n", 2,
			`vms.csv:2: character 28: bare " in non-quoted-field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ReadSkyPilotCSV(strings.NewReader(tt.csv), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("ReadSkyPilotCSV() error = %v, want %s", err, tt.want)
			}
			var ce *CSVError
			if !errors.As(err, &ce) || ce.Line != tt.line {
				t.Errorf("error %T line %v, want *CSVError at line %d", err, ce, tt.line)
			}
		})
	}
}

// TestReadSkyPilotCSVNoRegion: Seeweb's catalog (v8/seeweb/vms.csv @
// 004a1aef) lists flavors sold nowhere with an empty Region; they are
// skipped with one warning, the rest of the file is read.
func TestReadSkyPilotCSVNoRegion(t *testing.T) {
	const csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		"ECS1GPU6,L4,1,4,32.0,0.38,it-fr2,,\n" +
		"ECS4GPU6,L4,8,32,256.0,3.04,,,\n" +
		"ECS1GPU8,H100,1,16,256.0,1.89,,,\n"
	insts, warns, err := ReadSkyPilotCSV(strings.NewReader(csv), "vms.csv", "seeweb", CatalogGPUResolver(testCatalog()))
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "instances", summary(insts), []string{"ECS1GPU6 l4×1 4/32 it-fr2 0.38/-"})
	wantWarnings(t, warns, "vms.csv:3: GPU rows without a Region (sold in no region) skipped (2 rows)")
}

func TestReadSkyPilotCSVHeader(t *testing.T) {
	// Columns in another order, a byte-order mark, an unknown extra column (v9's
	// LocalDiskSize) and no GpuInfo, SpotPrice or zone column at all.
	in := "\ufeffRegion,Price,LocalDiskSize,MemoryGiB,vCPUs,AcceleratorCount,AcceleratorName,InstanceType\n" +
		"us-east-1,0.526,125,16,4,1,T4,g4dn.xlarge\n"
	insts, warns, err := ReadSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "instances", summary(insts), []string{"g4dn.xlarge t4×1 4/16 us-east-1 0.526/-"})
	wantWarnings(t, warns)
}

func TestReadSkyPilotCSVConflict(t *testing.T) {
	in := awsHeader +
		"g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1\n" +
		"g4dn.xlarge,T4,1,8,16,,0.6,,eu-west-1,euw1-az1\n" // 8 vCPUs: contradicts line 2
	insts, warns, err := ReadSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "instances", summary(insts), []string{"g4dn.xlarge t4×1 4/16 us-east-1 0.526/-"})
	wantWarnings(t, warns, "vms.csv:3: g4dn.xlarge differs from its first row at line 2")
}

func TestReadSkyPilotCSVNoResolver(t *testing.T) {
	if _, _, err := ReadSkyPilotCSV(strings.NewReader(awsHeader), "vms.csv", "aws", nil); err == nil {
		t.Error("ReadSkyPilotCSV(nil resolver) succeeded, want an error")
	}
}

func TestGPUMemoryMiB(t *testing.T) {
	tests := []struct {
		name, info, provider string
		count                int
		want                 float64
	}{
		{"AWS long form", "{'Gpus': [{'Name': 'T4', 'Count': 1, 'Workloads': ['ml-ai', 'graphics'], 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}", "aws", 1, 16384},
		{"GCP short form", "{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]}", "gcp", 2, 40960},
		{"DO lower-case keys", "{'gpus': [{'name': 'h100', 'memoryinfo': {'sizeinmib': 81559}}], 'totalgpumemoryinmib': 81559}", "do", 8, 81559},
		{"Vast: SizeInMiB of all GPUs ÷ 2", "{'Gpus': [{'Name': 'H200', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 287542}}]}", "vast", 2, 143771},
		{"total ÷ count", "{'Gpus': [{'Name': 'V100'}], 'TotalGpuMemoryInMiB': 131072}", "oci", 8, 16384},
		{"Lambda total is per GPU", "{'Gpus': [{'Name': 'V100'}], 'TotalGpuMemoryInMiB': 16384}", "lambda", 8, 16384},
		{"Cudo string count", "{'Gpus': [{'Count': '1.0', 'MemoryInfo': {'SizeInMiB': '49152'}}]}", "cudo", 1, 49152},
		{"double quotes, tuple, None", `{"Gpus": ({"MemoryInfo": {"SizeInMiB": 8192}, "X": None, "Y": True},)}`, "aws", 1, 8192},
		// skypilot-catalog catalogs/v8/runpod/vms.csv @ 01acdfd4 and v8/shadeform/vms.csv @ 002363da write GB.
		{"RunPod GB in SizeInMiB", "{'Gpus': [{'Name': 'RTX 4090', 'Manufacturer': 'Nvidia', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 24}}], 'TotalGpuMemoryInMiB': 24}", "runpod", 1, 24576},
		{"Shadeform GB in SizeInMiB", "{'Gpus': [{'Name': 'H200', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 141}, 'TotalGpuMemoryInMiB': 1128}]}", "shadeform", 8, 144384},
		// v8/primeintellect/vms.csv @ d9a304ea: SizeInMiB of 8 A100 80GB is 655360.
		{"Prime Intellect SizeInMiB of all GPUs ÷ 8", `{"Gpus":[{"Name":"A100-80GB","Count":8,"MemoryInfo":{"SizeInMiB":655360}}],"TotalGpuMemoryInMiB":5242880}`, "primeintellect", 8, 81920},
		{"bare name (Azure)", "V100", "azure", 1, 0},
		{"empty (FPGA)", "", "aws", 1, 0},
		{"malformed", "{'Gpus': [", "aws", 1, 0},
		{"negative size", "{'Gpus': [{'MemoryInfo': {'SizeInMiB': -5}}]}", "aws", 1, 0},
		{"deep nesting", strings.Repeat("[", 10000), "aws", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gpuMemoryMiB(tt.info, tt.provider, tt.count); got != tt.want {
				t.Errorf("gpuMemoryMiB() = %g MiB, want %g MiB", got, tt.want)
			}
		})
	}
}

func TestCatalogGPUResolver(t *testing.T) {
	resolve := CatalogGPUResolver(testCatalog())
	tests := []struct {
		name, accel string
		memMiB      float64
		typ         string
		want        string // "" = not resolved
	}{
		{"alias", "T4", 16384, "g4dn.xlarge", "t4"},
		{"A100 40 GB", "A100", 40960, "p4d.24xlarge", "a100-40gb"},
		{"A100 named 40 GB with 80 GB memory", "A100", 81920, "1x-A100_PCIE-32-65536", "a100-80gb"},
		{"A100 without memory: the alias", "A100", 0, "Standard_ND96asr_v4", "a100-40gb"},
		{"H100 PCIe by name", "H100", 81920, "gpu_1x_h100_pcie", "h100-pcie"},
		{"H100 SXM by name", "H100", 81920, "gpu_8x_h100_sxm5", "h100-sxm"},
		// "NVLINK" in a type's name says nothing of the form factor
		// (Hyperstack's -NVLink flavors are PCIe cards with bridges): the
		// alias's GPU, and never the H100 NVL its "nvl" spells.
		{"H100 NVLINK type: the alias", "H100", 81920, "H100_NVLINK_80GB::8", "h100-sxm"},
		{"H100 NVLINK type, memory unknown: the alias, not NVL", "H100", 0, "H100_NVLINK_80GB::8", "h100-sxm"},
		{"H100 NVLINK type of the PCIe name", "H100-PCIe", 0, "H100_NVLINK_80GB::8", "h100-pcie"},
		{"H100 NVL by memory", "H100", 95830, "1x-H100_SXM-32-65536", "h100-nvl"},
		{"H100 NVL by Azure type", "H100", 0, "Standard_NC80adis_H100_v5", "h100-nvl"},
		{"H100 SXM by Azure type", "H100", 0, "Standard_ND96isr_H100_v5", "h100-sxm"},
		{"H100 PCIe by Fluidstack type", "H100", 81920, "H100_PCIE_80GB::1", "h100-pcie"},
		{"H100-MEGA is the SXM", "H100-MEGA", 81920, "a3-megagpu-8g", "h100-sxm"},
		{"H100 unnamed: the alias", "H100", 81559, "gpu-h100x8-640gb", "h100-sxm"},
		{"V100 32 GB by memory", "V100", 32768, "p3dn.24xlarge", "v100-32gb"},
		{"usable memory of A10G", "A10G", 22888, "g5.xlarge", "a10g"},
		{"fallback name table", "Radeon MI25", 0, "Standard_NV4as_v4", "mi25"},
		{"fallback needs the key in the catalog", "GH200", 0, "gpu_1x_gh200", ""},
		{"48 GB RTX 4090 is another card", "RTX4090", 49140, "1x-RTX_4090", ""},
		{"Hyperstack H100 PCIe", "H100-80G-PCIe", 81920, "n3-H100x1", "h100-pcie"},
		{"Hyperstack H100 SXM5", "H100-80G-SXM5", 81920, "n3-H100-SXM5x8", "h100-sxm"},
		// The accelerator's PCIe beats the type's NVLink: eight PCIe cards
		// joined in pairs by NVLink bridges (new-user walk: ranked as SXM).
		{"Hyperstack H100 PCIe with NVLink bridges", "H100-80G-PCIe-NVLink", 81920, "n3-H100x8-NVLink", "h100-pcie"},
		{"Hyperstack H100 PCIe with NVLink bridges, memory unknown", "H100-80G-PCIe-NVLink", 0, "n3-H100x8-NVLink", "h100-pcie"},
		{"accelerator named SXM beats a type named PCIe", "H100-SXM", 81920, "odd_pcie_name", "h100-sxm"},
		{"FPGA", "Virtex UltraScale (VU9P)", 0, "f1.2xlarge", ""},
		{"empty", "", 0, "x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := resolve(tt.accel, tt.memMiB, tt.typ)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("resolve(%q, %g, %q) = %q, %v; want %q", tt.accel, tt.memMiB, tt.typ, got, ok, tt.want)
			}
		})
	}
}

func TestGCPMachineGPUs(t *testing.T) {
	tests := []struct {
		typ   string
		accel string
		count int
	}{
		{"a2-highgpu-4g", "A100", 4},
		{"a2-megagpu-16g", "A100", 16},
		{"a2-ultragpu-8g", "A100-80GB", 8},
		{"a3-highgpu-1g", "H100", 1},
		{"a3-edgegpu-8g-nolssd", "H100", 8},
		{"a3-megagpu-8g", "H100-MEGA", 8},
		{"a3-ultragpu-8g", "H200", 8},
		{"a4-highgpu-8g", "B200", 8},
		{"g2-standard-12", "L4", 1},
		{"g2-standard-24", "L4", 2},
		{"g2-standard-48", "L4", 4},
		{"g2-standard-96", "L4", 8},
		{"g2-standard-6", "", 0},
		{"a2-highgpu-xg", "", 0},
		{"n1-standard-8", "", 0},
	}
	for _, tt := range tests {
		accel, count, ok := gcpMachineGPUs(tt.typ)
		if accel != tt.accel || count != tt.count || ok != (tt.accel != "") {
			t.Errorf("gcpMachineGPUs(%q) = %q, %d, %v; want %q, %d", tt.typ, accel, count, ok, tt.accel, tt.count)
		}
	}
}

// FuzzReadSkyPilotCSV checks that no input panics and that every accepted
// instance is well formed: whole GPUs, finite non-negative numbers, at least
// one known price per region, spot never above on-demand.
func FuzzReadSkyPilotCSV(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "skypilot", "*.csv"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		provider := strings.TrimSuffix(filepath.Base(file), ".csv")
		f.Add(string(b), provider)
	}
	f.Add(awsHeader+"g4dn.xlarge,T4,1,4,16,,0.5,0.2,us-east-1,use1-az1\n", "aws")
	f.Add(awsHeader+"\"g4dn.xlarge\nx\",T4,1,4,16,,0.5,0.2,us-\x1beast-1,use1-az1\n", "aws")
	f.Add(awsHeader+"g4dn.xlarge,T4,1,4,16,,9e8,0.2,us-east-1,use1-az1\n", "aws")
	f.Add(awsHeader+"g4dn.xlarge,\"T4\n\n\"\"x,1,4,16,,0.5,0.2,us-east-1,use1-az1\ng5,\"\n\n", "aws") // a quote left open over lines
	resolve := CatalogGPUResolver(testCatalog())
	f.Fuzz(func(t *testing.T, in, provider string) {
		insts, _, err := ReadSkyPilotCSV(strings.NewReader(in), "fuzz.csv", provider, resolve)
		if err != nil {
			return
		}
		for _, it := range insts {
			bad := it.GPUCount < 1 || it.VCPUs < 0 || !finite(it.MemoryGiB) || it.MemoryGiB < 0 ||
				it.GPU == "" || it.Type == "" || len(it.Prices) == 0 || safeio.CheckName(it.Type) != nil
			for _, p := range it.Prices {
				bad = bad || safeio.CheckName(p.Region) != nil || p.OnDemandUSD > maxUSDPerHour || p.SpotUSD > maxUSDPerHour
				bad = bad || !finite(p.OnDemandUSD) || !finite(p.SpotUSD) || p.OnDemandUSD < 0 || p.SpotUSD < 0 ||
					p.OnDemandUSD == 0 && p.SpotUSD == 0 || p.OnDemandUSD > 0 && p.SpotUSD > p.OnDemandUSD
			}
			if bad {
				t.Fatalf("accepted a malformed instance: %+v", it)
			}
		}
	})
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// TestReadSkyPilotCSVInterleaved pins what the in-place accumulator must
// get right: rows of types interleaved over regions (a type's regions move
// to the end of the shared price array), types out of order (sorted by
// moving each instance once), a type with no price between priced ones
// (dropped, the rest close up) and zones of one region lowering its prices.
// Expected lines worked out by hand from the rows.
func TestReadSkyPilotCSVInterleaved(t *testing.T) {
	in := awsHeader +
		"p3.2xlarge,V100,1,8,61,,3.06,1.0,us-west-2,usw2-az1\n" + // line 2
		"g5.xlarge,A10G,1,4,16,,1.006,0.5,us-east-1,use1-az1\n" +
		"p3.2xlarge,V100,1,8,61,,3.06,0.9,eu-west-1,euw1-az1\n" + // p3's second region, after g5's
		"g6.xlarge,L4,1,4,16,,,,us-east-1,use1-az1\n" + // no price: dropped
		"g5.xlarge,A10G,1,4,16,,1.2,,eu-west-1,euw1-az1\n" + // g5's second region, after p3's move
		"p3.2xlarge,V100,1,8,61,,3.06,0.8,us-west-2,usw2-az2\n" + // lower spot in a zone already seen
		"g4dn.xlarge,T4,1,4,16,,0.526,,us-east-1,use1-az1\n"
	for _, room := range []int{0, 3} {
		insts, backing, warns, err := readSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(testCatalog()), room, int64(len(in)))
		if err != nil {
			t.Fatal(err)
		}
		wantLines(t, fmt.Sprintf("instances (room %d)", room), summary(insts), []string{
			"g4dn.xlarge t4×1 4/16 us-east-1 0.526/-",
			"g5.xlarge a10g×1 4/16 eu-west-1 1.2/- us-east-1 1.006/0.5",
			"p3.2xlarge v100-16gb×1 8/61 eu-west-1 3.06/0.9 us-west-2 3.06/0.8",
		})
		wantWarnings(t, warns, "vms.csv:5: g6.xlarge has no price in any region; skipped")
		if len(backing) != room+len(insts) || len(insts) > 0 && &backing[room] != &insts[0] {
			t.Errorf("room %d: backing holds %d instances, want the %d instances after %d free slots", room, len(backing), len(insts), room)
		}
		for i := range backing[:room] {
			if backing[i].Type != "" {
				t.Errorf("room %d: slot %d holds %q, want a zero instance", room, i, backing[i].Type)
			}
		}
	}
}

// TestReadSkyPilotCSVSortsTypes: instances come out sorted by type name
// whatever the file order, including names that share their first 8
// bytes (sortKey ties, decided by the names) and names that are prefixes
// of others. The expected order is strings.Compare's.
func TestReadSkyPilotCSVSortsTypes(t *testing.T) {
	for _, order := range [][]string{
		{"a"}, {"b", "a"}, {"c", "a", "b"}, {"e", "d", "c", "b", "a"},
		{"p4d.24xlarge-b", "p4d.24xlarge", "p4d.24xlarge-a", "p4d.24x", "p4d"},
		{"g5.12xlarge", "g5.xlarge", "g5.2xlarge", "g5.48xlarge", "g5.4xlarge", "g5.8xlarge", "g5.16xlarge", "g5.24xlarge"},
		{"zz", "ab", "aaaaaaaab", "aaaaaaaaa", "aaaaaaaa", "aaaaaaa"},
	} {
		var in strings.Builder
		in.WriteString(awsHeader)
		for _, typ := range order {
			fmt.Fprintf(&in, "%s,A10G,1,4,16,,1.006,0.5,us-east-1,use1-az1\n", typ)
		}
		insts, _, err := ReadSkyPilotCSV(strings.NewReader(in.String()), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(order)
		slices.SortFunc(want, strings.Compare)
		var got []string
		for _, in := range insts {
			got = append(got, in.Type)
		}
		if !slices.Equal(got, want) {
			t.Errorf("file order %q: instances %q, want %q", order, got, want)
		}
	}
}

// TestSortKey: a smaller sortKey means a smaller name, for names shorter,
// as long as and longer than the key's 8 bytes.
func TestSortKey(t *testing.T) {
	names := []string{"", "a", "ab", "ab ", "abcdefgh", "abcdefg", "abcdefgi", "abcdefghi", "b", "p4d.24xlarge", "p5.48xlarge", "\x7f", "é"}
	for _, a := range names {
		for _, b := range names {
			if sortKey(a) < sortKey(b) && a >= b {
				t.Errorf("sortKey(%q) < sortKey(%q) but %q ≥ %q", a, b, a, b)
			}
		}
	}
}

// Rows that repeat an earlier row's instance type, region and zone are
// folded (the lowest on-demand and the lowest spot price kept), with one
// warning for the file: how many, a few examples with their lines, and
// which price won (issue 29 item 6). A zone of its own is not a repeat.
func TestReadSkyPilotCSVDuplicateRows(t *testing.T) {
	in := awsHeader +
		"g4dn.xlarge,T4,1,4,16,,0.526,0.2,us-east-1,use1-az1\n" +
		"g4dn.xlarge,T4,1,4,16,,0.40,0.3,us-east-1,use1-az1\n" + // repeat of line 2
		"g4dn.xlarge,T4,1,4,16,,0.50,,us-east-1,use1-az2\n" + // another zone: not a repeat
		"g4dn.2xlarge,T4,1,8,32,,0.752,,us-east-1,use1-az1\n" +
		"g4dn.xlarge,T4,1,4,16,,0.6,,us-east-1,use1-az1\n" + // repeat of line 2, in a later run
		"g4dn.2xlarge,T4,1,8,32,,0.752,,us-east-1,use1-az1\n" + // repeat of line 5
		"g4dn.2xlarge,T4,1,8,32,,0.752,,us-east-1,use1-az1\n" // and again
	insts, warns, err := ReadSkyPilotCSV(strings.NewReader(in), "vms.csv", "aws", CatalogGPUResolver(testCatalog()))
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, "instances", summary(insts), []string{
		"g4dn.2xlarge t4×1 8/32 us-east-1 0.752/-",
		"g4dn.xlarge t4×1 4/16 us-east-1 0.4/0.2",
	})
	got := model.Strings(warns)
	want := "vms.csv:3: 4 rows repeat the instance type, region and zone of an earlier row, e.g. g4dn.xlarge us-east-1 use1-az1 (lines 2, 3), g4dn.xlarge us-east-1 use1-az1 (lines 2, 6), g4dn.2xlarge us-east-1 use1-az1 (lines 5, 7); the lowest on-demand and the lowest spot price of the repeated rows are kept"
	if len(got) != 1 || got[0] != want {
		t.Errorf("warnings:\n  %s\nwant one:\n  %s", strings.Join(got, "\n  "), want)
	}
}
