// The engine's hand-written types (engine/types.ts) and the protocol's
// zod-inferred types must describe the same shapes. These assertions are
// checked by `tsc --noEmit` (npm test runs it first): drift fails the build.
import { describe, expect, it } from 'vitest';
import type * as E from '../../engine/types';
import type * as P from '../../src/protocol';

/** true only when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<A, B>(ok: Same<A, B>): Same<A, B> {
  return ok;
}

describe('protocol types agree with engine/types.ts', () => {
  it('actions', () => {
    expect(same<P.ResourceCounts, E.ResourceCounts>(true)).toBe(true);
    expect(same<P.SetupAction, E.SetupAction>(true)).toBe(true);
    expect(same<P.TurnAction, E.TurnAction>(true)).toBe(true);
    expect(same<P.TurnActionType, E.TurnActionType>(true)).toBe(true);
    expect(same<P.DiscardAction, E.DiscardAction>(true)).toBe(true);
    expect(same<P.BanditAction, E.BanditAction>(true)).toBe(true);
    expect(same<P.TradeResponse, E.TradeResponse>(true)).toBe(true);
    expect(same<P.ActionByKind, E.ActionByKind>(true)).toBe(true);
    expect(same<P.AnyAction, E.AnyAction>(true)).toBe(true);
  });

  it('views and names', () => {
    expect(same<P.PioneersView, E.PioneersView>(true)).toBe(true);
    expect(same<P.PublicView, E.PublicView>(true)).toBe(true);
    expect(same<P.BoardView, E.BoardView>(true)).toBe(true);
    expect(same<P.OpenTrade, E.OpenTrade>(true)).toBe(true);
    expect(same<P.TableTalk, E.TableTalk>(true)).toBe(true);
    expect(same<P.DecisionKind, E.DecisionKind>(true)).toBe(true);
    expect(same<P.StrikeReason, E.StrikeReason>(true)).toBe(true);
    expect(same<P.DevCardName, E.DevCardName>(true)).toBe(true);
    expect(same<P.ResourceName, E.ResourceName>(true)).toBe(true);
    expect(same<P.HexKind, E.HexKind>(true)).toBe(true);
  });

  it('replay events, their public form and rejection codes', () => {
    expect(same<P.GameEvent, E.GameEvent>(true)).toBe(true);
    expect(same<P.GameEventKind, E.GameEventKind>(true)).toBe(true);
    expect(same<P.PublicGameEvent, E.PublicGameEvent>(true)).toBe(true);
    expect(same<P.RejectionCode, E.RejectionCode>(true)).toBe(true);
    // A MatchEvent is a GameEvent plus the runner's seq and at.
    expect(same<P.MatchEvent, E.GameEvent & { seq: number; at: string }>(true)).toBe(true);
    expect(same<P.PublicMatchEvent, E.PublicGameEvent & { seq: number; at: string }>(true)).toBe(true);
    // Kind by kind, so a drift names the kind that drifted.
    expect(same<Extract<P.GameEvent, { kind: 'dev' }>, E.EventOf<'dev'>>(true)).toBe(true);
    expect(same<Extract<P.GameEvent, { kind: 'timeout' }>, E.EventOf<'timeout'>>(true)).toBe(true);
    expect(same<Extract<P.GameEvent, { kind: 'action' }>, E.EventOf<'action'>>(true)).toBe(true);
  });

  it('a deliberately different shape is caught', () => {
    // Guards the guard: if Same<> were vacuous this line would not compile.
    // @ts-expect-error SetupAction is not a TradeResponse
    expect(same<P.SetupAction, E.TradeResponse>(true)).toBe(true);
    // @ts-expect-error the public form of an event is not the private one
    expect(same<P.PublicGameEvent, E.GameEvent>(true)).toBe(true);
  });
});
