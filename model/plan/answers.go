package plan

// checkAnswers decodes the answers of every phase that has them
// (Phase.ConfigFromAnswers, the configuration file's own decoder), so a
// bad answer (batch_size = "0", an unknown key, search.pricing = "free")
// is an error naming the phase and the key when the plan is read, not a
// note inside the savings that --no-savings drops. A phase's config file
// is the caller's to read (model reads no files).
func checkAnswers(phases []Phase) error {
	for i := range phases {
		if len(phases[i].Answers) == 0 {
			continue
		}
		if _, err := phases[i].ConfigFromAnswers(); err != nil {
			return err
		}
	}
	return nil
}
