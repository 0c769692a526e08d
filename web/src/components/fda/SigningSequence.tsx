import { App, Button, Card, Empty, Select, Space, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  checkersKey,
  endorsementPageKey,
  signingSequenceKey,
  updateSigningSequence,
  type Checker,
  type Endorsement,
  type SigningSequence,
  type StepRole,
} from '@/api/fda';
import type { Page } from '@/components/ui/table';
import { useRead } from '@/hooks/useRead';

const ROLES: StepRole[] = ['author', 'reviewer', 'approver'];
const MAX_STEPS = 5;

interface DraftStep {
  role: StepRole;
  endorsementIds: number[];
  signerIds: number[];
}

/**
 * The account's signing sequence (21 CFR 11.50): the steps a data file is signed in, in order, each
 * with the meanings its signer chooses from and the people allowed to sign it (none chosen: any).
 * Files already created keep the sequence they were created with.
 */
export function SigningSequenceTab() {
  const { t } = useTranslation('fda');
  const { message } = App.useApp();
  const sequence = useRead<SigningSequence>(signingSequenceKey());
  const endorsements = useRead<Page<Endorsement>>(endorsementPageKey({ start: 1, pageSize: 200 }));
  const checkers = useRead<Checker[]>(checkersKey());
  const [draft, setDraft] = useState<DraftStep[] | null>(null);
  const [saving, setSaving] = useState(false);

  const meaningOptions = (endorsements.data?.list ?? []).map((e) => ({ value: e.id, label: e.endorsementName }));
  const signerOptions = (checkers.data ?? []).map((c) => ({
    value: c.id,
    label: c.realName ? `${c.realName} (${c.userName})` : c.userName,
  }));
  const roleOptions = ROLES.map((role) => ({ value: role, label: t(`sequence.roles.${role}`) }));
  const names = (ids: number[], options: { value: number; label: string }[], none: string) =>
    ids.length ? ids.map((id) => options.find((o) => o.value === id)?.label ?? `#${id}`).join(', ') : none;

  const change = (index: number, patch: Partial<DraftStep>) =>
    setDraft((old) => (old ?? []).map((step, i) => (i === index ? { ...step, ...patch } : step)));
  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      await updateSigningSequence(draft);
      message.success(t('sequence.saved'));
      setDraft(null);
      void sequence.mutate();
    } catch {
      // The request client has shown why (or the reason prompt was cancelled).
    } finally {
      setSaving(false);
    }
  };

  const steps = sequence.data?.steps ?? [];
  return (
    <div data-testid="fda-sequence">
      <Typography.Paragraph type="secondary">{t('sequence.help')}</Typography.Paragraph>
      {draft === null ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          {steps.length === 0 && <Empty />}
          {steps.map((step) => (
            <Card
              key={step.step}
              size="small"
              title={t('steps.label', { n: step.step, role: step.roleName })}
              data-testid="sequence-step"
            >
              <div>{`${t('sequence.meanings')}: ${names(step.endorsementIds, meaningOptions, t('sequence.anyMeaning'))}`}</div>
              <div>{`${t('sequence.signers')}: ${names(step.signerIds, signerOptions, t('sequence.anySigner'))}`}</div>
            </Card>
          ))}
          <Button
            type="primary"
            onClick={() =>
              setDraft(steps.map((s) => ({ role: s.role, endorsementIds: s.endorsementIds, signerIds: s.signerIds })))
            }
            data-testid="sequence-edit"
          >
            {t('sequence.edit')}
          </Button>
        </Space>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {draft.map((step, index) => (
            <Card
              key={index}
              size="small"
              title={t('steps.label', { n: index + 1, role: t(`sequence.roles.${step.role}`) })}
              extra={
                draft.length > 1 && (
                  <Button type="link" danger size="small" onClick={() => setDraft(draft.filter((_, i) => i !== index))}>
                    {t('delete')}
                  </Button>
                )
              }
            >
              <Space direction="vertical" style={{ width: '100%' }}>
                <Select
                  value={step.role}
                  options={roleOptions}
                  onChange={(role) => change(index, { role })}
                  style={{ width: 200 }}
                  data-testid="sequence-role"
                />
                <Select
                  mode="multiple"
                  value={step.endorsementIds}
                  options={meaningOptions}
                  placeholder={t('sequence.anyMeaning')}
                  onChange={(endorsementIds) => change(index, { endorsementIds })}
                  style={{ width: '100%' }}
                />
                <Select
                  mode="multiple"
                  value={step.signerIds}
                  options={signerOptions}
                  placeholder={t('sequence.anySigner')}
                  onChange={(signerIds) => change(index, { signerIds })}
                  style={{ width: '100%' }}
                />
              </Space>
            </Card>
          ))}
          <Space>
            <Button
              disabled={draft.length >= MAX_STEPS}
              onClick={() => setDraft([...draft, { role: 'approver', endorsementIds: [], signerIds: [] }])}
            >
              {t('sequence.addStep')}
            </Button>
            <Button onClick={() => setDraft(null)}>{t('sequence.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="sequence-save">
              {t('sequence.save')}
            </Button>
          </Space>
        </Space>
      )}
    </div>
  );
}
