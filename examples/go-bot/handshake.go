// Verifying the arena's signed WebSocket upgrade.
//
// The spec's form: x-svc-signature is base64 of an Ed25519 signature by the
// platform key over "<x-svc-timestamp>.<x-svc-match>", the timestamp (unix
// ms) within 30 s of our clock. The audience-bound form adds x-svc-audience
// (the URL the arena dialled, which must be ours: a signature meant for
// another bot cannot be replayed here), x-svc-nonce (never accepted twice)
// and x-svc-audience-signature over
// "<timestamp>.<match>.<nonce>.<audience>". Both forms are required: a
// handshake without the three bound headers is refused, since otherwise
// stripping them from a captured one would replay it.
package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// window: how far a timestamp may be from our clock, and how long a nonce is remembered.
const window = 30 * time.Second

// maxNonces bounds memory: past this many live nonces a handshake is refused
// rather than a live nonce forgotten, which would let its replay through
// (only validly signed ones are stored, so only the arena can fill it).
const maxNonces = 10000

var (
	stampPattern = regexp.MustCompile(`^\d{1,16}$`)
	noncePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`)
)

func platformKey(text string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(text)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("--platform-key must be base64 of 32 raw bytes (print it with `arena play --print-platform-key`)")
	}
	return raw, nil
}

type handshakeChecker struct {
	key      ed25519.PublicKey
	audience string
	nonces   *nonceMemory
}

// problem is "" when the upgrade's headers pass, else the reason to refuse it.
func (c *handshakeChecker) problem(h http.Header) string {
	for _, name := range []string{"x-svc-match", "x-svc-timestamp", "x-svc-signature", "x-svc-audience", "x-svc-nonce", "x-svc-audience-signature"} {
		if len(h.Values(name)) > 1 {
			return name + " is repeated" // ambiguous: which one was signed?
		}
	}
	match, stamp, sig := h.Get("x-svc-match"), h.Get("x-svc-timestamp"), h.Get("x-svc-signature")
	if match == "" || stamp == "" || sig == "" {
		return "unsigned: x-svc-match, x-svc-timestamp and x-svc-signature are required"
	}
	ms, err := strconv.ParseInt(stamp, 10, 64)
	now := time.Now()
	if !stampPattern.MatchString(stamp) || err != nil || absDuration(now.Sub(time.UnixMilli(ms))) > window {
		return "stale or bad x-svc-timestamp"
	}
	if !c.signed(stamp+"."+match, sig) {
		return "bad x-svc-signature"
	}
	audience, nonce, audienceSig := h.Get("x-svc-audience"), h.Get("x-svc-nonce"), h.Get("x-svc-audience-signature")
	if audience == "" || nonce == "" || audienceSig == "" {
		return "not audience-bound: x-svc-audience, x-svc-nonce and x-svc-audience-signature are required"
	}
	if audience != c.audience {
		return "x-svc-audience is not this bot's URL"
	}
	if !noncePattern.MatchString(nonce) {
		return "bad x-svc-nonce"
	}
	if !c.signed(stamp+"."+match+"."+nonce+"."+audience, audienceSig) {
		return "bad x-svc-audience-signature"
	}
	// Kept until the timestamp can no longer pass the window check either.
	until := now
	if t := time.UnixMilli(ms); t.After(until) {
		until = t
	}
	return c.nonces.remember(nonce, now, until.Add(window))
}

func (c *handshakeChecker) signed(message, b64 string) bool {
	sig, err := base64.StdEncoding.DecodeString(b64)
	return err == nil && len(sig) == ed25519.SignatureSize && ed25519.Verify(c.key, []byte(message), sig)
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// nonceMemory holds the nonces of recent handshakes until they expire.
type nonceMemory struct {
	mu     sync.Mutex
	expiry map[string]time.Time
	order  []string // insertion order, to forget the oldest first
}

func newNonceMemory() *nonceMemory {
	return &nonceMemory{expiry: map[string]time.Time{}}
}

// remember stores nonce and returns "", or the reason it refuses: the nonce
// is still held (a replay), or the memory is full of live nonces.
func (m *nonceMemory) remember(nonce string, now, until time.Time) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	// Insertion order is expiry order but for clock jumps: good enough to bound memory.
	for len(m.order) > 0 && !m.expiry[m.order[0]].After(now) {
		delete(m.expiry, m.order[0])
		m.order = m.order[1:]
	}
	if exp, seen := m.expiry[nonce]; seen && exp.After(now) {
		return "x-svc-nonce seen before (a replayed handshake)"
	}
	if len(m.order) >= maxNonces {
		return "too many handshakes in the last 30 s to remember their nonces"
	}
	m.expiry[nonce] = until
	m.order = append(m.order, nonce)
	return ""
}
