package tui

import (
	tea "charm.land/bubbletea/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// switchLang redraws the configurator in the other language (English ⇄
// 简体中文), L on the full help (?): the language is otherwise only
// --lang or the locale, read at start. Every part that words the screen
// takes the new printer; the questions are built again on the page shown
// (their titles and options are words), the answers kept; the panel's
// cached text is dropped. The answers, the plan and what was exported
// are unchanged, and a file's lang key is written back as read.
func (m app) switchLang() (tea.Model, tea.Cmd) {
	tag := language.SimplifiedChinese
	if m.lang.Chinese() {
		tag = language.English
	}
	lang := i18n.New(tag) // nil for English, as everywhere
	m.opts.Lang, m.opts.lang = tag, lang
	m.lang = lang
	m.keys = localKeys(lang)
	m.panel.lang, m.panel.cache = lang, &panelCache{}
	m.offers.lang, m.detail.lang, m.plan.lang = lang, lang, lang
	m.browse.localize(lang)
	page := m.wiz.form.cur
	m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, lang)
	cmds := []tea.Cmd{m.wiz.form.Init(), m.wiz.form.goTo(page)}
	m.afterForm()
	if m.res != nil {
		m.offers.refresh(m.offers.selected())
		if m.screen == screenDetail && m.detail.offer != nil {
			m.detail.show(m.detail.offer, m.res, m.cat.AsOf)
		}
	}
	m.footer.say(lang.T("language: English (L on the help switches)"), false)
	m.layout()
	return m, tea.Batch(cmds...)
}
