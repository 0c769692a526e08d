/** Business spec 9: up to three levels. */
export const MAX_LEVELS = 3;

/** Spec 4 / 5: each level's minutes after the trigger rise strictly (1 < 2 < 3). */
export function levelTimesRise(minutes: number[]): boolean {
  return minutes.every((value, index) => index === 0 || value > minutes[index - 1]);
}
