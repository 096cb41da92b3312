package tui

import "github.com/gpuplan/gpuplan/model"

// ConfiguratorRequest is the request the configurator builds after loading
// c: its answers filled from the file (answersFromConfig), then turned back
// into a request (answers.config), as an export would. For tests outside
// the package (request_test.go), which also import the command line.
func ConfiguratorRequest(cat *model.Catalog, c *model.Config) (model.Config, error) {
	return answersFromConfig(cat, c).config()
}
