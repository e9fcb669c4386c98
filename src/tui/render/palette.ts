// Letters and colours for resources and seats. Letters carry the meaning;
// colours only repeat it.
import type { HexKind, ResourceName } from '../../../engine/index';
import type { Colour } from './style';

export const RESOURCE_LETTER: Record<HexKind, string> = {
  brick: 'B',
  lumber: 'L',
  wool: 'W',
  grain: 'G',
  ore: 'O',
  desert: '-',
};

export const RESOURCE_COLOUR: Record<HexKind, Colour> = {
  brick: 'red',
  lumber: 'green',
  wool: 'greenBright',
  grain: 'yellow',
  ore: 'gray',
  desert: 'white',
};

/** Seat colours avoid the resource colours so a road never looks like a hex. */
export const SEAT_COLOUR: readonly Colour[] = ['cyan', 'magenta', 'blueBright', 'whiteBright'];

export function seatColour(seat: number): Colour {
  return SEAT_COLOUR[seat % SEAT_COLOUR.length];
}

export const RESOURCE_ORDER: readonly ResourceName[] = ['brick', 'lumber', 'wool', 'grain', 'ore'];

export const DEV_LETTER: Record<string, string> = {
  knight: 'K',
  victory_point: 'V',
  roadworks: 'R',
  windfall: 'F',
  embargo: 'E',
};
