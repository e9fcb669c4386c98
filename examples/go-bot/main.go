// A complete pioneers bot in Go: the standard library plus
// github.com/gorilla/websocket.
//
// Run it with `go build -o bot . && ./bot --port 8080` (README.md says how
// to build offline), then test it with
// `arena bot check http://127.0.0.1:8080`.
//
// GET /ping answers pong; the arena opens one WebSocket per match, checked
// when a platform key is given (handshake.go); each DecisionRequest frame is
// answered with {id, action} (strategy.go decides).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/gorilla/websocket"
)

// request is a DecisionRequest frame (docs/protocol.md).
type request struct {
	ID      json.RawMessage `json:"id"`
	MatchID string          `json:"matchId"`
	Seat    int             `json:"seat"`
	Kind    string          `json:"kind"`
	View    View            `json:"view"`
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Action any             `json:"action"`
}

func main() {
	port := flag.String("port", envOr("PORT", "8080"), "port to listen on (default $PORT or 8080; 0 picks a free port)")
	host := flag.String("host", envOr("HOST", "127.0.0.1"), "address to listen on ($HOST)")
	keyText := flag.String("platform-key", os.Getenv("ARENA_PLATFORM_KEY"), "base64 platform public key: verify every handshake, 401 otherwise ($ARENA_PLATFORM_KEY; `arena play --print-platform-key`)")
	publicURL := flag.String("public-url", os.Getenv("BOT_PUBLIC_URL"), "the URL the arena connects to, as registered (https counts as wss), for the audience check ($BOT_PUBLIC_URL; default ws://<host>:<port>/)")
	quiet := flag.Bool("quiet", false, "no per-decision log")
	flag.Parse()
	if n, err := strconv.Atoi(*port); err != nil || n < 0 || n > 65535 {
		fail(fmt.Sprintf("--port must be a port number 0-65535, got %q", *port))
	}
	var key []byte
	if *keyText != "" {
		var err error
		if key, err = platformKey(*keyText); err != nil {
			fail(err.Error())
		}
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(*host, *port))
	if err != nil {
		fail(err.Error())
	}
	bound := listener.Addr().(*net.TCPAddr).Port
	shown := net.JoinHostPort(*host, strconv.Itoa(bound))
	// Our own URL comes from configuration, never from the request's Host header.
	own := *publicURL
	if own == "" {
		local := *host
		if local == "0.0.0.0" || local == "::" {
			local = "127.0.0.1"
		}
		own = "ws://" + net.JoinHostPort(local, strconv.Itoa(bound)) + "/"
	}
	audience, err := handshakeAudience(own)
	if err != nil {
		fail(fmt.Sprintf("--public-url must be a URL such as wss://bot.example.org/ (the one the arena connects to), got %q", own))
	}
	logf := func(format string, args ...any) {
		if !*quiet {
			log.Printf(format, args...)
		}
	}
	checker := &handshakeChecker{key: key, audience: audience, nonces: newNonceMemory()}

	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/ping") {
			w.Header().Set("content-type", "text/plain")
			fmt.Fprint(w, "pong")
			return
		}
		if !websocket.IsWebSocketUpgrade(r) {
			http.Error(w, "not found: this is a bot; the arena connects by WebSocket", http.StatusNotFound)
			return
		}
		if key != nil {
			if problem := checker.problem(r.Header); problem != "" {
				logf("refused upgrade: %s", problem)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
		}
		ws, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return // the upgrader already answered
		}
		play(ws, logf)
	})
	log.SetFlags(0)
	log.SetPrefix("go-bot: ")
	verifying := ""
	if key != nil {
		verifying = " (verifying handshakes for " + audience + ")"
	}
	// Scripts and tests read the address from this line.
	fmt.Printf("go bot listening on http://%s%s\n", shown, verifying)
	if err := http.Serve(listener, mux); err != nil {
		fail(err.Error())
	}
}

// The arena sends no Origin worth checking: the platform key is the check.
var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// play answers each DecisionRequest on one match's socket until the arena hangs up.
func play(ws *websocket.Conn, logf func(string, ...any)) {
	defer ws.Close()
	ws.SetReadLimit(1 << 20)
	for {
		kind, data, err := ws.ReadMessage()
		if err != nil {
			return // the arena closed the socket: the match is over
		}
		if kind != websocket.TextMessage {
			continue
		}
		var req request
		if err := json.Unmarshal(data, &req); err != nil {
			logf("ignored a frame that is not a DecisionRequest: %v", err)
			continue
		}
		action, err := decide(req.Kind, &req.View)
		if err != nil {
			// Answer at once: the arena plays its default and counts a strike, but does not wait out the deadline.
			logf("decide failed (%v); sent no action", err)
		}
		out, _ := json.Marshal(response{ID: req.ID, Action: action})
		if err := ws.WriteMessage(websocket.TextMessage, out); err != nil {
			return
		}
		logf("seat %d %s -> %s", req.Seat, req.Kind, mustJSON(action))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// handshakeAudience writes a URL as the arena writes the audience: WHATWG's
// URL.href (approximated for the URLs a bot has: lower-case scheme and host,
// no default port, "/" for an empty path), http(s) read as ws(s) since that
// is what the arena dials, and no fragment (never sent).
func handshakeAudience(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("not an absolute URL")
	}
	scheme, ok := map[string]string{"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}[strings.ToLower(u.Scheme)]
	if !ok {
		return "", fmt.Errorf("not a ws(s):// or http(s):// URL")
	}
	u.Scheme = scheme
	u.Host = strings.ToLower(u.Host)
	if p := u.Port(); (scheme == "ws" && p == "80") || (scheme == "wss" && p == "443") {
		u.Host = strings.TrimSuffix(u.Host, ":"+p)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func fail(message string) {
	fmt.Fprintf(os.Stderr, "go-bot: %s\n", message)
	os.Exit(2)
}
