// The strategy: one legal answer for each of the five decision kinds,
// computed from the view and the board's fixed geometry (board.json, the
// output of `arena board --json`, compiled into the program). Replace decide.
package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed board.json
var boardJSON []byte

// Board is the fixed geometry: which vertices a hex has, which vertices and edges touch.
type Board struct {
	Hexes []struct {
		Vertices []int `json:"vertices"`
	} `json:"hexes"`
	Vertices []struct {
		Neighbours []int `json:"neighbours"`
		Edges      []int `json:"edges"`
		Hexes      []int `json:"hexes"`
	} `json:"vertices"`
	Edges []struct {
		Vertices []int `json:"vertices"`
	} `json:"edges"`
}

var board = func() Board {
	var b Board
	if err := json.Unmarshal(boardJSON, &b); err != nil {
		panic(fmt.Sprintf("board.json: %v", err))
	}
	return b
}()

// View is the part of a seat's view this strategy reads (docs/protocol.md has all of it).
type View struct {
	Seat  int `json:"seat"`
	Board struct {
		Hexes []struct {
			Token *int `json:"token"`
		} `json:"hexes"`
		Bandit int `json:"bandit"`
	} `json:"board"`
	Towns []struct {
		Seat   int  `json:"seat"`
		Vertex int  `json:"vertex"`
		City   bool `json:"city"`
	} `json:"towns"`
	Roads []struct {
		Seat int `json:"seat"`
		Edge int `json:"edge"`
	} `json:"roads"`
	Hand       map[string]int `json:"hand"`
	HandCounts []int          `json:"handCounts"`
}

var resources = []string{"brick", "lumber", "wool", "grain", "ore"}

var costs = map[string]map[string]int{
	"road":       {"brick": 1, "lumber": 1},
	"settlement": {"brick": 1, "lumber": 1, "wool": 1, "grain": 1},
	"city":       {"grain": 2, "ore": 3},
}

const (
	roadLimit       = 15
	settlementLimit = 5
	cityLimit       = 4
)

// pips: how many of the 36 dice rolls pay a number token.
var pips = map[int]int{2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

// decide returns the action for one DecisionRequest (any JSON-encodable value).
func decide(kind string, v *View) (any, error) {
	switch kind {
	case "setup":
		return setup(v), nil
	case "turn":
		return turn(v), nil
	case "discard":
		return discard(v), nil
	case "bandit":
		return bandit(v), nil
	case "trade":
		return map[string]bool{"accept": false}, nil // never help an opponent
	}
	return nil, fmt.Errorf("unknown decision kind %q", kind)
}

// vertexValue: how much a town on vertex produces, the pips of its hexes.
func vertexValue(v *View, vertex int) int {
	n := 0
	for _, h := range board.Vertices[vertex].Hexes {
		if t := v.Board.Hexes[h].Token; t != nil {
			n += pips[*t]
		}
	}
	return n
}

// townSeats maps each vertex with a town to its owner.
func townSeats(v *View) map[int]int {
	m := map[int]int{}
	for _, t := range v.Towns {
		m[t.Vertex] = t.Seat
	}
	return m
}

// freeForTown is the distance rule: the vertex and all its neighbours are town-free.
func freeForTown(vertex int, towns map[int]int) bool {
	if _, taken := towns[vertex]; taken {
		return false
	}
	for _, n := range board.Vertices[vertex].Neighbours {
		if _, taken := towns[n]; taken {
			return false
		}
	}
	return true
}

func canAfford(hand map[string]int, cost map[string]int) bool {
	for r, n := range cost {
		if hand[r] < n {
			return false
		}
	}
	return true
}

// bestVertex is the candidate with the most pips (the first on a tie), or -1 for none.
func bestVertex(v *View, candidates []int) int {
	best, score := -1, -1
	for _, c := range candidates {
		if s := vertexValue(v, c); s > score {
			best, score = c, s
		}
	}
	return best
}

type setupAction struct {
	Settlement int `json:"settlement"`
	Road       int `json:"road"`
}

func setup(v *View) setupAction {
	towns := townSeats(v)
	var free []int
	for vertex := range board.Vertices {
		if freeForTown(vertex, towns) {
			free = append(free, vertex)
		}
	}
	settlement := bestVertex(v, free)
	roads := map[int]bool{}
	for _, r := range v.Roads {
		roads[r.Edge] = true
	}
	road := -1
	for _, e := range board.Vertices[settlement].Edges {
		if !roads[e] {
			road = e
			break
		}
	}
	return setupAction{settlement, road}
}

type turnAction struct {
	Type   string `json:"type"`
	Vertex *int   `json:"vertex,omitempty"`
	Edge   *int   `json:"edge,omitempty"`
}

// roadEdges: empty edges joined to the seat's network, not through an opponent's town.
func roadEdges(v *View) []int {
	towns := townSeats(v)
	owner := map[int]int{}
	for _, r := range v.Roads {
		owner[r.Edge] = r.Seat
	}
	var out []int
	for e, edge := range board.Edges {
		if _, built := owner[e]; built {
			continue
		}
		for _, vertex := range edge.Vertices {
			if seat, ok := towns[vertex]; ok {
				if seat == v.Seat {
					out = append(out, e)
					break
				}
				continue
			}
			joined := false
			for _, f := range board.Vertices[vertex].Edges {
				if s, ok := owner[f]; ok && f != e && s == v.Seat {
					joined = true
				}
			}
			if joined {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// settlementVertices: free vertices (distance rule) on one of the seat's roads.
func settlementVertices(v *View) []int {
	towns := townSeats(v)
	own := map[int]bool{}
	for _, r := range v.Roads {
		if r.Seat == v.Seat {
			own[r.Edge] = true
		}
	}
	var out []int
	for vertex := range board.Vertices {
		if !freeForTown(vertex, towns) {
			continue
		}
		for _, e := range board.Vertices[vertex].Edges {
			if own[e] {
				out = append(out, vertex)
				break
			}
		}
	}
	return out
}

// turn builds a city, else a settlement, else a road when affordable; otherwise ends the turn.
func turn(v *View) turnAction {
	var settlements []int
	cities, roads := 0, 0
	for _, t := range v.Towns {
		if t.Seat == v.Seat {
			if t.City {
				cities++
			} else {
				settlements = append(settlements, t.Vertex)
			}
		}
	}
	for _, r := range v.Roads {
		if r.Seat == v.Seat {
			roads++
		}
	}
	if len(settlements) > 0 && cities < cityLimit && canAfford(v.Hand, costs["city"]) {
		vertex := bestVertex(v, settlements)
		return turnAction{Type: "build_city", Vertex: &vertex}
	}
	if len(settlements) < settlementLimit && canAfford(v.Hand, costs["settlement"]) {
		if vertex := bestVertex(v, settlementVertices(v)); vertex >= 0 {
			return turnAction{Type: "build_settlement", Vertex: &vertex}
		}
	}
	if roads < roadLimit && canAfford(v.Hand, costs["road"]) {
		if edges := roadEdges(v); len(edges) > 0 {
			return turnAction{Type: "build_road", Edge: &edges[0]}
		}
	}
	return turnAction{Type: "end_turn"}
}

// discard gives up exactly half the hand, rounded down, one card at a time from the largest pile.
func discard(v *View) map[string]map[string]int {
	hand := map[string]int{}
	total := 0
	for _, r := range resources {
		hand[r] = v.Hand[r]
		total += v.Hand[r]
	}
	cards := map[string]int{}
	for owed := total / 2; owed > 0; owed-- {
		most := resources[0]
		for _, r := range resources {
			if hand[r] > hand[most] {
				most = r
			}
		}
		hand[most]--
		cards[most]++
	}
	return map[string]map[string]int{"cards": cards}
}

type banditAction struct {
	Hex    int  `json:"hex"`
	Victim *int `json:"victim,omitempty"`
}

// bandit moves to a hex (never the one it is on) where an opponent has a town
// and we have none, robbing the opponent there who holds most cards.
func bandit(v *View) banditAction {
	towns := townSeats(v)
	choice := banditAction{Hex: 0}
	if v.Board.Bandit == 0 {
		choice.Hex = 1
	}
	bestScore := -1
	for h, hex := range board.Hexes {
		if h == v.Board.Bandit {
			continue
		}
		victim, mine, count := -1, false, 0
		for _, vertex := range hex.Vertices {
			seat, ok := towns[vertex]
			if !ok {
				continue
			}
			if seat == v.Seat {
				mine = true
				continue
			}
			count++
			if victim < 0 || v.HandCounts[seat] > v.HandCounts[victim] {
				victim = seat
			}
		}
		if victim < 0 || mine {
			continue
		}
		if score := v.HandCounts[victim]*10 + count; score > bestScore {
			robbed := victim
			bestScore, choice = score, banditAction{Hex: h, Victim: &robbed}
		}
	}
	return choice
}
