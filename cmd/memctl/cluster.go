package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/palimpsest-mem/memory"
	"github.com/palimpsest-mem/memory/cluster"
	"github.com/spf13/cobra"
)

// clusterCmd runs the nodes of a cluster in this process.
func (a *app) clusterCmd() *cobra.Command {
	var (
		dir   string
		ports string
	)
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Run a 3-node NATS JetStream cluster for the memory, on this machine",
		Long: `cluster runs three NATS JetStream servers (nats-server, embedded) in this
process, on loopback, storing under --dir (a folder per node), with R3 file
streams and an fsync on every write, and the agent that lets the hard deletes of
other processes prove themselves on the nodes. It prints the cluster's URL;
point memctl at it with --db:

  memctl --db nats://127.0.0.1:4222 add "I live in Lyon."
  memctl --db nats://127.0.0.1:4222 serve

Stop it with Ctrl-C (or SIGTERM); started again on the same --dir, the nodes
keep their data. Credentials for a cluster that wants them: a user and password
in the URL, or a credentials file in $NATS_CREDS.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ps, err := parsePorts(ports)
			if err != nil {
				return usagef("--ports: %v", err)
			}
			if dir == "" {
				if dir, err = a.stateDir("cluster"); err != nil {
					return err
				}
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), time.Minute)
			nodes, err := cluster.Start(ctx, a.local(dir), &cluster.NodesOptions{Ports: ps})
			cancel()
			if err != nil {
				return err
			}
			defer nodes.Close()
			a.printf("cluster of 3 nodes at %s, storing under %s", nodes.URL(), a.local(dir))
			a.printf("use it: memctl --db nats://127.0.0.1:%d add \"I live in Lyon.\"", ps[0])
			<-cmd.Context().Done()
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "folder of the nodes' data (default $XDG_DATA_HOME/palimpsest/cluster)")
	f.StringVar(&ports, "ports", "4222,4223,4224", "the nodes' client ports on loopback, three, comma-separated")
	return cmd
}

func parsePorts(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want three ports", s)
	}
	out := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%q is not a port", p)
		}
		out[i] = n
	}
	return out, nil
}

// isClusterURL says whether --db names a cluster rather than a file.
func isClusterURL(db string) bool {
	return strings.HasPrefix(db, "nats://") || strings.HasPrefix(db, "tls://")
}

// openCluster opens the store on the cluster at addr, its candidate index
// in a private folder of this user's named after the cluster.
func (a *app) openCluster(ctx context.Context, addr string, opts *memory.Options) (*memory.Store, error) {
	dir, err := a.stateDir(filepath.Join("cluster-index", clusterKey(addr)))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return cluster.Open(ctx, addr, dir, &cluster.Options{Memory: opts, Credentials: a.getenv("NATS_CREDS")})
}

// clusterKey names a cluster by its hosts, not by the password its URL
// may hold.
func clusterKey(addr string) string {
	var hosts []string
	for _, p := range strings.Split(addr, ",") {
		if u, err := url.Parse(strings.TrimSpace(p)); err == nil {
			hosts = append(hosts, u.Host)
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(hosts, ",")))
	return hex.EncodeToString(sum[:8])
}

// stateDir is a folder of this user's for memctl's own state, made 0700:
// $XDG_STATE_HOME/palimpsest/name, else ~/.local/state/palimpsest/name.
func (a *app) stateDir(name string) (string, error) {
	base := a.getenv("XDG_STATE_HOME")
	if base == "" {
		home := a.getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("no $XDG_STATE_HOME nor $HOME for memctl's folders")
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "palimpsest", name)
	if _, err := makeParents(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// storeName is what messages call the open store: its file, or the
// cluster --db names (its password masked).
func (a *app) storeName(s *memory.Store) string {
	if p := s.Path(); p != "" {
		return p
	}
	return cluster.Name(a.db)
}
