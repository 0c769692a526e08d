import cases from '@rules/cases.json';
import { describe, expect, it } from 'vitest';
import {
  FIRMWARE_MAX_BYTES,
  groupPhase,
  groupSizes,
  minutesLeft,
  parseStages,
  progressOf,
  stagesProblem,
  UPGRADE_RULES,
} from './upgrade';

describe('staged rollout groups (as api/product/rollouts.py cuts them)', () => {
  it.each(cases.upgradeGroups)('$count devices in $stages -> $sizes (rules/cases.json)', ({ count, stages, sizes }) => {
    expect(groupSizes(count, stages)).toEqual(sizes);
    expect(groupSizes(count, stages).reduce((a, b) => a + b, 0)).toBe(count);
  });

  it.each(cases.upgradeStages)('groups $stages valid: $valid (rules/cases.json)', ({ stages, valid }) => {
    expect(stagesProblem(stages) === null).toBe(valid);
  });

  it.each([
    ['5, 25, 100', [5, 25, 100], null],
    ['5% 25% 100%', [5, 25, 100], null],
    ['100', [100], null],
    ['5，100', [5, 100], null],
    ['a, 100', null, 'format'],
    ['', null, 'format'],
    ['1, 2, 3, 4, 5, 100', [1, 2, 3, 4, 5, 100], 'count'],
    ['0, 100', [0, 100], 'range'],
    ['50, 25, 100', [50, 25, 100], 'order'],
    ['50, 50, 100', [50, 50, 100], 'order'],
    ['5, 25', [5, 25], 'last'],
  ])('%j is %j (%s)', (text, stages, problem) => {
    expect(parseStages(text)).toEqual(stages);
    expect(stagesProblem(parseStages(text))).toBe(problem);
  });

  it('reads its limits from the shared rules', () => {
    expect(UPGRADE_RULES.maxStages).toBe(5);
    expect(FIRMWARE_MAX_BYTES).toBe(10 * 1024 * 1024);
  });
});

describe('progress', () => {
  it('counts finished devices, failed ones included', () => {
    expect(progressOf({ waiting: 2, queued: 1, downloading: 1, installing: 1, installed: 4, failed: 1 })).toEqual({
      total: 10,
      installed: 4,
      failed: 1,
      active: 3,
      percent: 50,
    });
    expect(progressOf({})).toEqual({ total: 0, installed: 0, failed: 0, active: 0, percent: 0 });
  });

  it('places groups around the current one', () => {
    const group = (stage: number) => ({ stage, percent: 100, devices: 1, counts: {} });
    expect([0, 1, 2].map((stage) => groupPhase(group(stage), 1))).toEqual(['done', 'current', 'later']);
  });

  it('tells the minutes left before a silent device fails', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(minutesLeft('2026-11-24T17:57:30+08:00', 10, now)).toBe(8);
    expect(minutesLeft('2026-11-24T09:45:00Z', 10, now)).toBe(0);
    expect(minutesLeft(null, 10, now)).toBeNull();
  });
});
