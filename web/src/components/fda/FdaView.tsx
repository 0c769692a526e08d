import { App, Button, DatePicker, Descriptions, Form, Input, Modal, Select, Space, Tabs, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  assignDataFile,
  checkersKey,
  dataFileDetailKey,
  dataFilePageKey,
  deleteDataFile,
  deleteEndorsement,
  endorsementPageKey,
  fdaConfigKey,
  fileMeaningsKey,
  insertDataFile,
  requestSignedPdf,
  saveEndorsement,
  signDataFile,
  type Checker,
  type DataFile,
  type DataFileFilters,
  type Endorsement,
  type FdaConfig,
} from '@/api/fda';
import { downloadFile, filePage, saveBlob } from '@/api/report';
import { formatTime, isoWithOffset } from '@/lib/format';
import { useDeviceOptions } from '@/hooks/resources';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { ModeTab } from './ModeTab';
import { SignModal } from './SignModal';
import { SigningSequenceTab } from './SigningSequence';
import { NextSigner, SignStateTag, SigningSteps, stepLabel } from './SigningSteps';

/** How long the signed PDF is waited for before the download centre is pointed at instead. */
const PDF_WAIT_MS = 90_000;
const PDF_POLL_MS = 1_500;

/** /fda: FDA 21 CFR Part 11, tabs: FDA mode, endorsement management, electronic signature. */
export function FdaView() {
  const { t } = useTranslation('fda');
  const [tab, setTab] = useState('mode');
  const config = useRead<FdaConfig>(fdaConfigKey());
  const items = [
    {
      key: 'mode',
      label: t('tabs.mode'),
      children: <ModeTab config={config.data} onChanged={() => void config.mutate()} />,
    },
    { key: 'endorsements', label: t('tabs.endorsements'), children: <EndorsementTab /> },
    { key: 'sequence', label: t('tabs.sequence'), children: <SigningSequenceTab /> },
    { key: 'signatures', label: t('tabs.signatures'), children: <SignatureTab config={config.data} /> },
  ];
  return (
    <div data-testid="fda-page">
      <Tabs activeKey={tab} onChange={setTab} items={items} destroyOnHidden />
    </div>
  );
}

function EndorsementTab() {
  const { t } = useTranslation('fda');
  const { modal } = App.useApp();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ endorsement: Endorsement | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<Endorsement, { endorsementName?: string }>(
    endorsementPageKey,
    { endorsementName: name || undefined },
  );
  const columns: ListColumn<Endorsement>[] = [
    { key: 'name', title: t('endorsement.name'), dataIndex: 'endorsementName', card: 'title', important: true },
    { key: 'description', title: t('endorsement.description'), dataIndex: 'description', long: true },
    { key: 'created', title: t('created'), render: (_, row) => formatTime(row.gmtCreate), responsive: ['md'] },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ endorsement: row })}>
            {t('edit')}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              modal.confirm({
                title: t('endorsement.deleteConfirm'),
                onOk: () => deleteEndorsement(row.id).then(() => mutate()),
              })
            }
          >
            {t('delete')}
          </Button>
        </Space>
      ),
    },
  ];
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'endorsementName',
      label: t('endorsement.name'),
      maxLength: 50,
      rules: [{ required: true, max: 50, message: t('length50') }],
    },
    {
      type: 'input',
      name: 'description',
      label: t('endorsement.description'),
      maxLength: 50,
      rules: [{ max: 50, message: t('length50') }],
    },
  ];
  const current = editing?.endorsement ?? null;
  const initial = useMemo(
    () => ({ endorsementName: current?.endorsementName ?? '', description: current?.description ?? '' }),
    [current],
  );
  return (
    <div data-testid="fda-endorsements">
      <DataList<Endorsement>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        testId="endorsement-list"
        filters={
          <Input
            allowClear
            placeholder={t('endorsement.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            style={{ width: 200 }}
          />
        }
        actions={
          <Button type="primary" onClick={() => setEditing({ endorsement: null })} data-testid="endorsement-add">
            {t('endorsement.add')}
          </Button>
        }
      />
      <DrawerForm<{ endorsementName: string; description: string }>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={current ? t('endorsement.edit') : t('endorsement.add')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          await saveEndorsement({
            id: current?.id,
            endorsementName: values.endorsementName,
            description: values.description ?? '',
          });
          void mutate();
        }}
      />
    </div>
  );
}

function SignatureTab({ config }: { config?: FdaConfig }) {
  const { t } = useTranslation('fda');
  const { message } = App.useApp();
  const [filters, setFilters] = useState<DataFileFilters>({});
  const [creating, setCreating] = useState(false);
  const [assigning, setAssigning] = useState<DataFile | null>(null);
  const [signing, setSigning] = useState<DataFile | null>(null);
  const [viewing, setViewing] = useState<DataFile | null>(null);
  const [pdfBusy, setPdfBusy] = useState<number | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<DataFile, DataFileFilters>(dataFilePageKey, filters);
  // The meanings of the file's current step, from the file's owner (a member has no endorsements of its own).
  const meanings = useRead<Endorsement[]>(signing ? fileMeaningsKey(signing.id) : null);
  const meaningOptions = (meanings.data ?? []).map((e) => ({
    value: e.id,
    label: e.description ? `${e.endorsementName} (${e.description})` : e.endorsementName,
  }));

  const downloadSignedPdf = async (file: DataFile) => {
    setPdfBusy(file.id);
    try {
      const queued = await requestSignedPdf(file.id);
      message.info(t('file.pdfQueued'));
      const until = Date.now() + PDF_WAIT_MS;
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, PDF_POLL_MS));
        const page = await filePage({ start: 1, pageSize: 20 });
        const row = page.list.find((f) => f.id === queued.id);
        if (row?.status === 'generated') {
          saveBlob(await downloadFile(row.id), row.fileName);
          return;
        }
        if (row?.status === 'failed') {
          message.error(row.reason ?? t('file.pdfFailed'));
          return;
        }
      }
      message.info(t('file.pdfLater'));
    } finally {
      setPdfBusy(null);
    }
  };

  const columns: ListColumn<DataFile>[] = [
    { key: 'fileName', title: t('file.name'), dataIndex: 'fileName', card: 'title', important: true },
    {
      key: 'window',
      title: t('file.window'),
      render: (_, f) =>
        `${formatTime(f.collectBegin, 'YYYY-MM-DD HH:mm')} ~ ${formatTime(f.collectEnd, 'YYYY-MM-DD HH:mm')}`,
    },
    { key: 'creator', title: t('file.creator'), dataIndex: 'creator', responsive: ['md'] },
    {
      key: 'assign',
      title: t('file.assignState'),
      render: (_, f) =>
        f.assignState === 'assigned' ? (
          <Tag color="processing">{`${t('file.assigned')} · ${f.checker ?? ''}`}</Tag>
        ) : (
          <Tag>{t('file.unassigned')}</Tag>
        ),
    },
    {
      key: 'sign',
      title: t('file.signState'),
      important: true,
      render: (_, f) => (
        <Space direction="vertical" size={0} data-testid="file-signature">
          <SignStateTag file={f} />
          {f.steps
            .filter((step) => step.signature)
            .map((step) => (
              <Typography.Text
                key={step.step}
              >{`${stepLabel(t, step)}: ${step.signature?.printedName} · ${step.signature?.meaning} · ${step.signature?.signedAtText}`}</Typography.Text>
            ))}
          <NextSigner file={f} />
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, f) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setViewing(f)} data-testid="file-view">
            {t('file.view')}
          </Button>
          {f.mine && f.signState !== 'signed' && (
            <Button type="link" size="small" onClick={() => setAssigning(f)} data-testid="file-assign">
              {t('file.assign')}
            </Button>
          )}
          {f.canSign && (
            <Button type="link" size="small" onClick={() => setSigning(f)} data-testid="file-sign">
              {t('file.sign')}
            </Button>
          )}
          {f.signState === 'signed' && (
            <Button
              type="link"
              size="small"
              loading={pdfBusy === f.id}
              onClick={() => void downloadSignedPdf(f)}
              data-testid="file-pdf"
            >
              {t('file.pdf')}
            </Button>
          )}
          {f.mine && f.signState === 'unsigned' && (
            <Button type="link" size="small" danger onClick={() => deleteDataFile(f.id).then(() => mutate())}>
              {t('delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="fda-signatures">
      {config && !config.enabled && <Typography.Paragraph type="warning">{t('file.needsMode')}</Typography.Paragraph>}
      <DataList<DataFile>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        testId="file-list"
        rowProps={(f) => ({ 'data-file': f.fileName })}
        filters={
          <Space wrap>
            <Input
              allowClear
              placeholder={t('file.name')}
              onChange={(e) => setFilters((old) => ({ ...old, fileName: e.target.value || undefined }))}
              style={{ width: 200 }}
            />
            <Select
              allowClear
              placeholder={t('file.signState')}
              style={{ width: 140 }}
              options={[
                { value: 'unsigned', label: t('file.unsigned') },
                { value: 'in_review', label: t('file.inReviewFilter') },
                { value: 'signed', label: t('file.signed') },
              ]}
              onChange={(value) => setFilters((old) => ({ ...old, signState: value }))}
            />
          </Space>
        }
        actions={
          <Button type="primary" onClick={() => setCreating(true)} disabled={!config?.enabled} data-testid="file-add">
            {t('file.add')}
          </Button>
        }
      />
      <CreateFileModal open={creating} onClose={() => setCreating(false)} onCreated={() => void mutate()} />
      <AssignModal file={assigning} onClose={() => setAssigning(null)} onAssigned={() => void mutate()} />
      <SignModal
        open={Boolean(signing)}
        title={t('file.signTitle')}
        summary={
          signing ? (
            <Typography.Paragraph strong>
              {signing.fileName}
              {signing.nextStep ? ` · ${stepLabel(t, signing.nextStep)}` : ''}
            </Typography.Paragraph>
          ) : null
        }
        userName={config?.userName ?? ''}
        endorsements={meaningOptions}
        askReason
        onClose={() => setSigning(null)}
        onSign={async (values) => {
          if (!signing) return;
          const signed = await signDataFile({
            id: signing.id,
            endorsementId: values.endorsementId ?? 0,
            step: signing.nextStep?.step,
            checkUserName: values.checkUserName,
            checkPassword: values.checkPassword,
            reason: values.reason || undefined,
          });
          message.success(signed.signState === 'signed' ? t('file.signedDone') : t('file.stepSignedDone'));
          void mutate();
        }}
      />
      <FileDetailModal file={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}

interface CreateValues {
  fileName: string;
  subjectId: number;
  window: [Dayjs, Dayjs];
}

/** The last full 24 hours: the usual batch record to sign. */
function defaultWindow(): [Dayjs, Dayjs] {
  const end = dayjs().startOf('hour');
  return [end.subtract(1, 'day'), end];
}

function CreateFileModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation('fda');
  const [form] = Form.useForm<CreateValues>();
  const devices = useDeviceOptions(open);
  const { submit, submitting } = useFormSubmit<CreateValues>(
    form,
    (values) =>
      insertDataFile({
        fileName: values.fileName,
        subjectType: 'device',
        subjectId: values.subjectId,
        collectBegin: isoWithOffset(values.window[0].toDate()),
        collectEnd: isoWithOffset(values.window[1].toDate()),
      }),
    {
      aliases: { collectBegin: 'window', collectEnd: 'window' },
      onDone: () => {
        form.resetFields();
        onCreated();
        onClose();
      },
    },
  );
  return (
    <Modal
      open={open}
      title={t('file.add')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'file-submit' } as never}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        data-testid="file-form"
        initialValues={{ window: defaultWindow() }}
      >
        <Form.Item
          name="fileName"
          label={t('file.name')}
          rules={[{ required: true, max: 100, message: t('file.nameRequired') }]}
        >
          <Input maxLength={100} data-testid="file-name" />
        </Form.Item>
        <Form.Item
          name="subjectId"
          label={t('file.device')}
          rules={[{ required: true, message: t('file.deviceRequired') }]}
        >
          <Select options={devices} showSearch optionFilterProp="label" data-testid="file-device" />
        </Form.Item>
        <Form.Item
          name="window"
          label={t('file.window')}
          rules={[{ required: true, message: t('file.windowRequired') }]}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
            data-testid="file-window"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function AssignModal({
  file,
  onClose,
  onAssigned,
}: {
  file: DataFile | null;
  onClose: () => void;
  onAssigned: () => void;
}) {
  const { t } = useTranslation('fda');
  const [form] = Form.useForm<{ checkerId: number; step?: number }>();
  const checkers = useRead<Checker[]>(file ? checkersKey() : null);
  const { submit, submitting } = useFormSubmit<{ checkerId: number; step?: number }>(
    form,
    (values) => assignDataFile(file?.id ?? 0, values.checkerId, values.step),
    {
      onDone: () => {
        onAssigned();
        onClose();
      },
    },
  );
  const options = (checkers.data ?? []).map((c) => ({
    value: c.id,
    label: c.realName ? `${c.realName} (${c.userName})` : c.userName,
  }));
  // The current step and the ones after it (assigned ahead); signed steps are done.
  const stepOptions = (file?.steps ?? [])
    .filter((s) => s.state !== 'signed')
    .map((s) => ({ value: s.step, label: stepLabel(t, s) }));
  return (
    <Modal
      open={Boolean(file)}
      title={t('file.assign')}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'assign-submit' } as never}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{ checkerId: file?.checkerId ?? undefined, step: file?.nextStep?.step }}
      >
        {stepOptions.length > 1 && (
          <Form.Item name="step" label={t('steps.step')} extra={t('steps.assignHelp')}>
            <Select options={stepOptions} data-testid="assign-step" />
          </Form.Item>
        )}
        <Form.Item
          name="checkerId"
          label={t('file.checker')}
          rules={[{ required: true, message: t('file.checkerRequired') }]}
          extra={t('file.checkerHelp')}
        >
          <Select options={options} data-testid="assign-checker" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FileDetailModal({ file, onClose }: { file: DataFile | null; onClose: () => void }) {
  const { t } = useTranslation('fda');
  const detail = useRead<DataFile>(file ? dataFileDetailKey(file.id) : null);
  const shown = detail.data;
  const signature = shown?.signature;
  const integrity = shown?.integrity;
  return (
    <Modal open={Boolean(file)} title={file?.fileName} footer={null} onCancel={onClose} width={720} destroyOnHidden>
      {shown && (
        <Descriptions column={1} size="small" bordered data-testid="file-detail">
          <Descriptions.Item
            label={t('file.window')}
          >{`${formatTime(shown.collectBegin)} ~ ${formatTime(shown.collectEnd)} (${shown.timeZone})`}</Descriptions.Item>
          <Descriptions.Item label={t('file.creator')}>{shown.creator}</Descriptions.Item>
          <Descriptions.Item label={t('file.checker')}>{shown.checker ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('file.signState')}>
            <Space direction="vertical" size={0}>
              <SignStateTag file={shown} />
              <NextSigner file={shown} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('steps.title')}>
            <SigningSteps steps={shown.steps} />
          </Descriptions.Item>
          {signature && (
            <>
              <Descriptions.Item label={t('signature.printedName')}>{signature.printedName}</Descriptions.Item>
              <Descriptions.Item label={t('signature.account')}>
                {signature.signerAccountId === null
                  ? signature.userName
                  : `${signature.userName} (#${signature.signerAccountId})`}
              </Descriptions.Item>
              <Descriptions.Item label={t('signature.signedAt')}>{signature.signedAtText}</Descriptions.Item>
              <Descriptions.Item label={t('signature.meaning')}>
                {signature.meaningDescription
                  ? `${signature.meaning} (${signature.meaningDescription})`
                  : signature.meaning}
              </Descriptions.Item>
              <Descriptions.Item label={t('signature.recordHash')}>
                <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                  {signature.recordHash}
                </Typography.Text>
              </Descriptions.Item>
            </>
          )}
          {integrity && (
            <Descriptions.Item label={t('signature.integrity')}>
              {integrity.intact && integrity.signatureValid ? (
                <Tag color="success" data-testid="file-intact">
                  {t('signature.intact')}
                </Tag>
              ) : (
                <Tag color="warning" data-testid="file-changed">
                  {t('signature.changed', { n: integrity.lateReadings })}
                </Tag>
              )}
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </Modal>
  );
}
