package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/inspect"
)

// inspector tells the last step through the pages a person would click:
// the inspector lists the facts, the decision log offers Undo, and one
// click on it retracts the trip Remember added. The requests go to the
// handler in-process, as `memctl serve` would answer them from a browser.
func (d *demo) inspector(trip memory.Fact) error {
	d.printf("\n12. The inspector: the same memory as a web page (memctl serve)\n")
	h, err := inspect.New(d.s, &inspect.Options{Clock: func() time.Time { return d.now }})
	if err != nil {
		return err
	}
	get := func(path string) (string, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequestWithContext(d.ctx, http.MethodGet, "http://127.0.0.1:7711"+path, nil))
		if rec.Code != http.StatusOK {
			return "", fmt.Errorf("demo: GET %s answered %d, the story expects 200", path, rec.Code)
		}
		return rec.Body.String(), nil
	}
	page, err := get("/")
	if err != nil {
		return err
	}
	if !strings.Contains(page, "Rome") {
		return fmt.Errorf("demo: the inspector's facts page does not show the trip #%d", trip.ID)
	}
	d.printf("    GET /           the current facts, the trip #%d among them\n", trip.ID)
	ds, err := d.s.Decisions(d.ctx, "", 1)
	if err != nil {
		return err
	}
	if len(ds) != 1 || ds[0].Added != trip.ID {
		return fmt.Errorf("demo: the newest decision is not the one that added the trip #%d", trip.ID)
	}
	undo := fmt.Sprintf("/decisions/%d/undo", ds[0].ID)
	if page, err = get("/decisions"); err != nil {
		return err
	}
	if !strings.Contains(page, `action="`+undo+`"`) {
		return fmt.Errorf("demo: the decision log has no Undo button for decision %d", ds[0].ID)
	}
	d.printf("    GET /decisions  the decision log, an Undo button on each decision\n")
	d.printf("    The user: \"I cancelled that trip.\" One click on Undo of decision %d:\n", ds[0].ID)
	rec := httptest.NewRecorder()
	req := httptest.NewRequestWithContext(d.ctx, http.MethodPost, "http://127.0.0.1:7711"+undo,
		strings.NewReader(url.Values{"user": {""}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		return fmt.Errorf("demo: POST %s answered %d, the story expects 303", undo, rec.Code)
	}
	f, err := d.s.Get(d.ctx, "", trip.ID)
	if err != nil {
		return err
	}
	if f.State() != memory.Retracted {
		return fmt.Errorf("demo: after the undo the trip #%d is %s, the story expects it retracted", trip.ID, f.State())
	}
	d.printf("    POST %s → 303; #%d is now %s, kept as history\n", undo, trip.ID, f.State())
	if page, err = get(fmt.Sprintf("/facts/%d", trip.ID)); err != nil {
		return err
	}
	if !strings.Contains(page, "retracted") {
		return fmt.Errorf("demo: the page of #%d does not show its retraction", trip.ID)
	}
	d.printf("    GET /facts/%d   its versions and lifecycle: recorded, then retracted by the undo\n", trip.ID)
	d.printf("    To click through this story yourself: memctl demo --keep story.db, then memctl serve --db story.db\n")
	return nil
}
