// The generated parts of docs/rules.md: every table of numbers comes from the
// engine's constants (engine/rules-data.ts, engine/board.ts), never typed in.
import { HEX_COUNT, hexVertices, type ResourceCounts } from '../../engine/index';
import { rulesData, type RulesData } from '../../engine/rules-data';

function table(head: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function cost(c: ResourceCounts): string {
  return Object.entries(c)
    .map(([r, n]) => `${n} ${r}`)
    .join(', ');
}

/** Markdown for each generated block of docs/rules.md, by block name. */
export function rulesBlocks(d: RulesData = rulesData()): Record<string, string> {
  return {
    'hex-vertices': table(
      ['hex', 'vertices (corner order: top, then clockwise)'],
      Array.from({ length: HEX_COUNT }, (_, h) => [h, hexVertices(h).join(', ')]),
    ),
    composition: [
      table(
        ['hex kind', 'count'],
        Object.entries(d.hexes).map(([k, n]) => [k, n]),
      ),
      '',
      `Number tokens, shuffled over the ${Object.values(d.hexes).reduce((a, b) => a + b, 0) - (d.hexes.desert ?? 0)} non-desert hexes: ${d.tokens.join(', ')}.`,
    ].join('\n'),
    ports: table(
      ['vertices', 'rate', 'resource'],
      d.ports.map((p) => [`${p.vertices[0]}, ${p.vertices[1]}`, `${p.rate}:1`, p.resource ?? 'any (generic)']),
    ),
    costs: table(
      ['build', 'cost', 'limit per seat'],
      [
        ['road', cost(d.costs.road), d.pieceLimits.road],
        ['settlement', cost(d.costs.settlement), d.pieceLimits.settlement],
        ['city (replaces a settlement)', cost(d.costs.city), d.pieceLimits.city],
        [
          'development card',
          cost(d.costs.dev_card),
          `the deck (${Object.values(d.deck).reduce((a, b) => a + b, 0)} cards)`,
        ],
      ],
    ),
    deck: table(
      ['card', 'count'],
      Object.entries(d.deck).map(([c, n]) => [`\`${c}\``, n]),
    ),
    rates: table(
      ['you have', 'you give for 1 card of your choice'],
      [
        ['no port', `${d.bankRates.base} of one resource`],
        ['a generic port', `${d.bankRates.genericPort} of one resource`],
        ["that resource's port", `${d.bankRates.resourcePort} of that resource`],
      ],
    ),
    points: table(
      ['source', 'VP'],
      [
        ['settlement', d.victoryPoints.settlement],
        ['city', d.victoryPoints.city],
        ['`victory_point` card (hidden until the end)', d.victoryPoints.victory_point],
        [`largest army (${d.awards.largestArmyKnights}+ knights played)`, d.victoryPoints.largestArmy],
        [`longest road (${d.awards.longestRoadLength}+ roads in a path)`, d.victoryPoints.longestRoad],
        ['**to win, on your own turn**', d.victoryPoints.toWin],
      ],
    ),
    limits: table(
      ['limit', 'value'],
      [
        ['turn cap (turns played at most)', d.limits.turnCap],
        ['offers per turn', d.limits.offersPerTurn],
        ['development cards played per turn', d.limits.devCardsPlayedPerTurn],
        ['table talk', `${d.limits.talkChars} characters`],
        ['talk log in the view', `last ${d.limits.talkLog} entries`],
        ['discard after a 7 when holding more than', `${d.limits.discardAbove} cards`],
        ['`roadworks` roads', `1 to ${d.limits.roadworksRoads}`],
        ['`windfall` cards', `exactly ${d.limits.windfallCards}`],
      ],
    ),
    rejections: table(
      ['code', 'meaning'],
      d.rejections.map((r) => [`\`${r.code}\``, r.meaning]),
    ),
  };
}

/** Replaces the body of every `<!-- generated:NAME -->` ... `<!-- /generated -->` block. Unknown names are an error. */
export function fillBlocks(markdown: string, blocks: Record<string, string>): string {
  return markdown.replace(/<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated -->/g, (_m, name: string) => {
    const body = blocks[name];
    if (body === undefined) throw new Error(`docs: no generated block named "${name}"`);
    return `<!-- generated:${name} -->\n${body}\n<!-- /generated -->`;
  });
}
