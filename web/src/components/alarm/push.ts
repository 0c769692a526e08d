import { FIELD_RULES, levelMinutesValid } from '@/lib/formRules';

/** Business spec 9: up to three levels (rules/fields.json, shared with the api). */
export const MAX_LEVELS = FIELD_RULES.levelMinutes.maxLevels;

/** Spec 4 / 5: each level's minutes after the trigger rise strictly (1 < 2 < 3), within range. */
export function levelTimesRise(minutes: number[]): boolean {
  return levelMinutesValid(minutes);
}
