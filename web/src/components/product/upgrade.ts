/**
 * The rules of an over-the-air upgrade as the api applies them (api/product/rollouts.py), from the
 * same data file (rules/fields.json `upgrade`, `lengths`): the groups of a staged rollout, the
 * firmware cap, and what the progress view shows.
 */
import fieldRules from '@rules/fields.json';
import type { RolloutGroup, TargetState } from '@/api/product';

export const UPGRADE_RULES = fieldRules.upgrade;
/** A device that has not confirmed its upgrade this many minutes after it was sent is failed (spec 5: about ten minutes). */
export const UPGRADE_TIMEOUT_MINUTES = fieldRules.upgrade.timeoutMinutes;
export const FIRMWARE_MAX_BYTES = fieldRules.upgrade.firmwareMaxMB * 1024 * 1024;
export const SERIES_NAME_MAX = fieldRules.lengths.seriesName.max;
export const VERSION_VALUE_MAX = fieldRules.lengths.versionValue.max;
export const VERSION_LABEL_MAX = fieldRules.lengths.versionLabel.max;
export const VERSION_DESCRIP_MAX = fieldRules.lengths.versionDescrip.max;

export const TARGET_STATES: TargetState[] = ['waiting', 'queued', 'downloading', 'installing', 'installed', 'failed'];
export const ACTIVE_STATES: TargetState[] = ['queued', 'downloading', 'installing'];

/** "5, 25, 100" -> [5, 25, 100]; null when a part is not a whole number. */
export function parseStages(text: string): number[] | null {
  const parts = text
    .split(/[,，\s]+/)
    .map((part) => part.replace(/%$/, ''))
    .filter(Boolean);
  if (!parts.length || parts.some((part) => !/^\d+$/.test(part))) return null;
  return parts.map(Number);
}

/** Why the groups are refused (as the api refuses them), or null: 1 to maxStages rising percentages 1-100, the last 100. */
export function stagesProblem(stages: number[] | null): 'format' | 'count' | 'range' | 'order' | 'last' | null {
  if (stages === null) return 'format';
  if (stages.length < 1 || stages.length > UPGRADE_RULES.maxStages) return 'count';
  if (stages.some((pct) => pct < 1 || pct > 100)) return 'range';
  if (stages.some((pct, i) => i > 0 && pct <= stages[i - 1])) return 'order';
  if (stages[stages.length - 1] !== 100) return 'last';
  return null;
}

/** How many devices each group gets (the api's group_sizes): group i ends at ceil(count x pct / 100), at least one device while any are left. */
export function groupSizes(count: number, stages: number[]): number[] {
  const sizes: number[] = [];
  let done = 0;
  for (const pct of stages) {
    const end = Math.min(count, Math.max(Math.ceil((count * pct) / 100), done + 1));
    sizes.push(end - done);
    done = end;
  }
  return sizes;
}

/** Finished devices and the share of a group or rollout that is done (installed or failed). */
export function progressOf(counts: Partial<Record<TargetState, number>>): {
  total: number;
  installed: number;
  failed: number;
  active: number;
  percent: number;
} {
  const total = TARGET_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  const installed = counts.installed ?? 0;
  const failed = counts.failed ?? 0;
  const active = ACTIVE_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  return { total, installed, failed, active, percent: total ? Math.round(((installed + failed) * 100) / total) : 0 };
}

/** The group a rollout waits on: current, done, or not started yet. */
export function groupPhase(group: RolloutGroup, currentStage: number): 'done' | 'current' | 'later' {
  if (group.stage < currentStage) return 'done';
  return group.stage === currentStage ? 'current' : 'later';
}

/** Minutes left before a device that has not confirmed its upgrade is failed (0 when past); null when not sent. */
export function minutesLeft(sentTime: string | null, timeoutMinutes: number, now: number = Date.now()): number | null {
  if (!sentTime) return null;
  const sent = new Date(sentTime.replace(' ', 'T')).getTime();
  if (Number.isNaN(sent)) return null;
  return Math.max(0, Math.ceil((sent + timeoutMinutes * 60_000 - now) / 60_000));
}
