package tui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// cachedSelect is a huh.Select whose drawing is kept until the field
// changes. huh draws a select by rendering every option (the model list
// has forty), and a group draws its focused field twice per update
// (group.getContent measures the field's height with a second View), so
// each keystroke drew the list twice; with the cache, once. A select's
// View depends only on its own state, and every method that changes that
// state goes through the wrapper, which drops the drawing; the bound
// value changes only through the field.
//
// Options and the other builders must be called on the huh.Select before
// it is wrapped (they change it behind the wrapper's back).
type cachedSelect[T comparable] struct {
	*huh.Select[T]
	view  string
	drawn bool
}

func cacheSelect[T comparable](s *huh.Select[T]) *cachedSelect[T] {
	return &cachedSelect[T]{Select: s}
}

// View is the select's drawing, kept until the next change.
func (c *cachedSelect[T]) View() string {
	if !c.drawn {
		c.view, c.drawn = c.Select.View(), true
	}
	return c.view
}

func (c *cachedSelect[T]) changed() { c.drawn, c.view = false, "" }

// Update passes msg to the select; the result is the wrapper, so the
// group keeps holding it.
func (c *cachedSelect[T]) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	c.changed()
	_, cmd := c.Select.Update(msg)
	return c, cmd
}

func (c *cachedSelect[T]) Focus() tea.Cmd { c.changed(); return c.Select.Focus() }

func (c *cachedSelect[T]) Blur() tea.Cmd { c.changed(); return c.Select.Blur() }

func (c *cachedSelect[T]) WithTheme(t huh.Theme) huh.Field {
	c.changed()
	c.Select.WithTheme(t)
	return c
}

func (c *cachedSelect[T]) WithKeyMap(k *huh.KeyMap) huh.Field {
	c.changed()
	c.Select.WithKeyMap(k)
	return c
}

func (c *cachedSelect[T]) WithWidth(w int) huh.Field {
	c.changed()
	c.Select.WithWidth(w)
	return c
}

func (c *cachedSelect[T]) WithHeight(h int) huh.Field {
	c.changed()
	c.Select.WithHeight(h)
	return c
}

func (c *cachedSelect[T]) WithPosition(p huh.FieldPosition) huh.Field {
	c.changed()
	c.Select.WithPosition(p)
	return c
}
