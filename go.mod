module github.com/gpuplan/gpuplan

go 1.24.5

require github.com/agnivade/levenshtein v1.2.2

require github.com/BurntSushi/toml v1.6.0
