// The numbers of the rules as data, read from the engine's own constants:
// `arena rules --json` prints this, and the tables in docs/rules.md are
// generated from it (a test fails when the document and the engine disagree).
import { HEX_KINDS, PORTS, RESOURCES } from './board';
import { REJECTION_MESSAGES } from './rejections';
import {
  AWARD_VP,
  BANK_RATE,
  BOARD_RESOURCES,
  CITY_LIMIT,
  CITY_VP,
  COST_CITY,
  COST_DEV,
  COST_ROAD,
  COST_SETTLEMENT,
  DECK_COUNTS,
  DISCARD_ABOVE,
  GENERIC_PORT_RATE,
  LARGEST_ARMY_MIN,
  LONGEST_ROAD_MIN,
  MAX_TURNS,
  OFFER_LIMIT,
  RESOURCE_PORT_RATE,
  ROAD_LIMIT,
  RULES_VERSION,
  SETTLEMENT_LIMIT,
  SETTLEMENT_VP,
  TALK_LIMIT,
  TALK_LOG_SIZE,
  TOKENS,
  WIN_VP,
} from './state';
import { DEV_CARDS, type ResourceCounts } from './types';

function counts(cost: readonly number[]): ResourceCounts {
  const out: ResourceCounts = {};
  cost.forEach((n, r) => {
    if (n > 0) out[RESOURCES[r]] = n;
  });
  return out;
}

export interface RulesData {
  rulesVersion: string;
  resources: readonly string[];
  costs: Record<'road' | 'settlement' | 'city' | 'dev_card', ResourceCounts>;
  pieceLimits: Record<'road' | 'settlement' | 'city', number>;
  victoryPoints: {
    settlement: number;
    city: number;
    victory_point: number;
    largestArmy: number;
    longestRoad: number;
    toWin: number;
  };
  awards: { largestArmyKnights: number; longestRoadLength: number };
  deck: Record<string, number>;
  hexes: Record<string, number>;
  tokens: readonly number[];
  ports: Array<{ vertices: readonly [number, number]; rate: 2 | 3; resource: string | null }>;
  bankRates: { base: number; genericPort: number; resourcePort: number };
  limits: {
    turnCap: number;
    offersPerTurn: number;
    devCardsPlayedPerTurn: number;
    talkChars: number;
    talkLog: number;
    discardAbove: number;
    roadworksRoads: number;
    windfallCards: number;
  };
  rejections: Array<{ code: string; meaning: string }>;
}

export function rulesData(): RulesData {
  const hexes: Record<string, number> = {};
  for (const k of BOARD_RESOURCES) hexes[HEX_KINDS[k]] = (hexes[HEX_KINDS[k]] ?? 0) + 1;
  return {
    rulesVersion: RULES_VERSION,
    resources: RESOURCES,
    costs: {
      road: counts(COST_ROAD),
      settlement: counts(COST_SETTLEMENT),
      city: counts(COST_CITY),
      dev_card: counts(COST_DEV),
    },
    pieceLimits: { road: ROAD_LIMIT, settlement: SETTLEMENT_LIMIT, city: CITY_LIMIT },
    victoryPoints: {
      settlement: SETTLEMENT_VP,
      city: CITY_VP,
      victory_point: 1,
      largestArmy: AWARD_VP,
      longestRoad: AWARD_VP,
      toWin: WIN_VP,
    },
    awards: { largestArmyKnights: LARGEST_ARMY_MIN, longestRoadLength: LONGEST_ROAD_MIN },
    deck: Object.fromEntries(DEV_CARDS.map((c, i) => [c, DECK_COUNTS[i]])),
    hexes,
    tokens: TOKENS,
    ports: PORTS.map((p) => ({ vertices: p.vertices, rate: p.rate, resource: p.resource ?? null })),
    bankRates: { base: BANK_RATE, genericPort: GENERIC_PORT_RATE, resourcePort: RESOURCE_PORT_RATE },
    limits: {
      turnCap: MAX_TURNS,
      offersPerTurn: OFFER_LIMIT,
      devCardsPlayedPerTurn: 1,
      talkChars: TALK_LIMIT,
      talkLog: TALK_LOG_SIZE,
      discardAbove: DISCARD_ABOVE,
      roadworksRoads: 2,
      windfallCards: 2,
    },
    rejections: Object.entries(REJECTION_MESSAGES).map(([code, meaning]) => ({ code, meaning })),
  };
}
