import { describe, expect, it } from 'vitest';
import { flowShares, iterationFigures } from './iteration-figures';

describe('flowShares', () => {
  it("gives each flow its percent of all the flows' iterations", () => {
    const [browse, search] = flowShares([
      { name: 'browse', iterations: 7001 },
      { name: 'search', iterations: 2999 },
    ]);
    expect(browse).toMatchObject({ name: 'browse', iterations: 7001 });
    expect(browse!.share).toBeCloseTo(70.01, 10);
    expect(search).toMatchObject({ name: 'search', iterations: 2999 });
    expect(search!.share).toBeCloseTo(29.99, 10);
  });

  it('says 0 % when no iteration began, and nothing without flows', () => {
    expect(flowShares([{ name: 'a', iterations: 0 }])).toEqual([{ name: 'a', iterations: 0, share: 0 }]);
    expect(flowShares(undefined)).toEqual([]);
  });
});

describe('iterationFigures', () => {
  it('counts an open-model run: a dropped 0 is a 0, with its percent of the iterations due', () => {
    expect(iterationFigures({ iterations_started: 30, iterations_dropped: 0 })).toEqual({
      started: 30,
      dropped: 0,
      droppedPercent: 0,
    });
    expect(iterationFigures({ iterations_started: 75, iterations_dropped: 25 })).toEqual({
      started: 75,
      dropped: 25,
      droppedPercent: 25,
    });
  });

  it('counts a closed-model run with flows by its flows, without a dropped count', () => {
    expect(
      iterationFigures({
        flows: [
          { name: 'a', iterations: 3 },
          { name: 'b', iterations: 1 },
        ],
      }),
    ).toEqual({ started: 4, dropped: null, droppedPercent: null });
  });

  it('makes up nothing for a run that counted no iteration', () => {
    expect(iterationFigures({})).toBeNull();
    expect(iterationFigures(null)).toBeNull();
    expect(iterationFigures({ iterations_started: 0, iterations_dropped: 0 })).toEqual({
      started: 0,
      dropped: 0,
      droppedPercent: null,
    });
  });
});
