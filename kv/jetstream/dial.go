package jetstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// Dial connects to the cluster at addr and opens a Backend on it, which
// closes the connection at Close. addr is a NATS URL, nats://host:port
// (several comma-separated, one per node, for failover), with a user and
// password in it when the cluster wants them; Options.Credentials names a
// credentials file (a JWT and its key), the NATS convention of nsc and
// the nats command. An unreachable cluster fails within the context.
func Dial(ctx context.Context, addr string, opts *Options) (*Backend, error) {
	if err := checkURLs(addr); err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	nopts := []nats.Option{
		nats.Name("palimpsest"),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(50 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
	}
	if deadline, ok := ctx.Deadline(); ok {
		nopts = append(nopts, nats.Timeout(time.Until(deadline)))
	}
	if o.Credentials != "" {
		nopts = append(nopts, nats.UserCredentials(o.Credentials))
	}
	nc, err := nats.Connect(addr, nopts...)
	if err != nil {
		return nil, fmt.Errorf("jetstream: connecting to %s: %w", Redact(addr), err)
	}
	b, err := Open(ctx, nc, &o)
	if err != nil {
		nc.Close()
		return nil, err
	}
	b.ownConn = true
	return b, nil
}

// checkURLs refuses what is not a list of nats:// (or tls://) URLs
// before anything is dialled.
func checkURLs(addr string) error {
	if addr == "" {
		return errors.New("jetstream: no cluster URL")
	}
	for _, a := range strings.Split(addr, ",") {
		u, err := url.Parse(strings.TrimSpace(a))
		if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" {
			return fmt.Errorf("jetstream: %q is not a cluster URL (nats://host:port)", Redact(a))
		}
	}
	return nil
}

// Redact is addr with the passwords it may hold masked, for messages.
func Redact(addr string) string {
	parts := strings.Split(addr, ",")
	for i, a := range parts {
		if u, err := url.Parse(strings.TrimSpace(a)); err == nil && u.User != nil {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			}
			parts[i] = u.String()
		}
	}
	return strings.Join(parts, ",")
}
