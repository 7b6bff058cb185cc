package memory

import (
	"context"

	"github.com/palimpsest-mem/memory/kv"
)

// Users returns the users that have at least one fact (current or not),
// the default user "" among them when it has any; a user whose every fact
// was deleted is gone. The order is that of the store's index: shorter
// names first, then bytewise. It is what a program that shows the store
// to a person (the inspector) needs to offer a choice of user.
func (s *Store) Users(ctx context.Context) ([]string, error) {
	if s.be != nil {
		return s.be.Users(ctx)
	}
	var out []string
	// The list of users is the one read no user owns.
	err := s.viewAll(ctx, func(tx *kv.Tx) error {
		var err error
		out, err = tx.Users()
		return err
	})
	return out, err
}

// ValidUser returns nil when user can name a user of a store, else an error
// wrapping ErrInvalidUser: at most MaxUserLen bytes of valid UTF-8 with no
// control character. A program that takes a user name from outside (the
// inspector's address bar) checks it before it asks anything, since reads
// of a name no user can have answer "nothing" rather than refuse.
func ValidUser(user string) error { return validUser(user) }
