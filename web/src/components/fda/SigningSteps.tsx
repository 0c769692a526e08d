import { Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { DataFile, FileStep, SignState } from '@/api/fda';

const STATE_COLOR: Record<FileStep['state'], string> = { signed: 'green', current: 'blue', pending: 'gray' };

/** A step's label: its number and role ("Step 2 · Reviewer"); a one-step file has no role. */
export function stepLabel(t: (key: string, options?: Record<string, unknown>) => string, step: FileStep): string {
  return t('steps.label', { n: step.step, role: step.roleName });
}

/** The file's sign state as a tag: signed, in review (which step is next), or not signed. */
export function SignStateTag({ file }: { file: Pick<DataFile, 'signState' | 'nextStep' | 'steps'> }) {
  const { t } = useTranslation('fda');
  const state: SignState = file.signState;
  if (state === 'signed') {
    return (
      <Tag color="success" data-testid="file-sign-state" data-state="signed">
        {t('file.signed')}
      </Tag>
    );
  }
  if (state === 'in_review') {
    const done = file.steps.filter((s) => s.state === 'signed').length;
    return (
      <Tag color="processing" data-testid="file-sign-state" data-state="in_review">
        {t('file.inReview', { done, total: file.steps.length })}
      </Tag>
    );
  }
  return (
    <Tag data-testid="file-sign-state" data-state="unsigned">
      {t('file.unsigned')}
    </Tag>
  );
}

/** Who signs next: the current step and its assignee (or that the creator has to assign it). */
export function NextSigner({ file }: { file: Pick<DataFile, 'nextStep'> }) {
  const { t } = useTranslation('fda');
  const next = file.nextStep;
  if (!next) return null;
  return (
    <Typography.Text type="secondary" data-testid="file-next">
      {next.assignee
        ? t('steps.next', { step: stepLabel(t, next), name: next.assignee })
        : t('steps.nextUnassigned', { step: stepLabel(t, next) })}
    </Typography.Text>
  );
}

/**
 * The steps of a file's signing sequence (21 CFR 11.50): for each signed step the manifestation
 * (printed name, user name with account id, local time with the zone named, meaning); the current
 * step and the pending ones with whom they are assigned to.
 */
export function SigningSteps({ steps }: { steps: FileStep[] }) {
  const { t } = useTranslation('fda');
  return (
    <Timeline
      data-testid="file-steps"
      items={steps.map((step) => {
        const signature = step.signature;
        return {
          key: step.step,
          color: STATE_COLOR[step.state],
          children: (
            <div data-testid="file-step" data-step={step.step} data-state={step.state}>
              <Typography.Text strong>{stepLabel(t, step)}</Typography.Text>{' '}
              <Tag color={STATE_COLOR[step.state]}>{t(`steps.state.${step.state}`)}</Tag>
              {signature ? (
                <div>
                  <div>{`${signature.printedName} · ${signature.accountId === null ? signature.userName : `${signature.userName} (#${signature.accountId})`}`}</div>
                  <div>{`${t('signature.meaning')}: ${signature.meaningDescription ? `${signature.meaning} (${signature.meaningDescription})` : signature.meaning}`}</div>
                  <Typography.Text type="secondary">{`${t('signature.signedAt')}: ${signature.signedAtText}`}</Typography.Text>
                </div>
              ) : (
                <div>
                  <Typography.Text type="secondary">
                    {step.assignee ? t('steps.assignedTo', { name: step.assignee }) : t('steps.unassigned')}
                  </Typography.Text>
                </div>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
