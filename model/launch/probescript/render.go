package probescript

import "github.com/gpuplan/gpuplan/model/launch"

// Render writes p in format f: the probe script (launch.FormatProbe) is
// this package's (Train), every other format launch's (Plan.Render). The
// command line and the configurator write a training file through it, so
// a format one lists the other writes alike.
func Render(p *launch.Plan, f launch.Format) ([]byte, error) {
	if f == launch.FormatProbe {
		return Train(p)
	}
	return p.Render(f)
}

// RenderServe is Render for a serving deployment: the probe script is
// Serve's, every other format launch's (Serve.Render).
func RenderServe(s *launch.Serve, f launch.Format) ([]byte, error) {
	if f == launch.FormatProbe {
		return Serve(s)
	}
	return s.Render(f)
}
