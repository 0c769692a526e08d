/**
 * The generic drawer form of spec section 2.3, for the domain pages: fields described as data, of
 * the types title, slot, text, select, treeSelect, radio, switch, number, password, confirmPassword
 * and input. Submitting validates, is debounced (500 ms), puts the api's field errors on the fields
 * and closes the drawer when the submit handler resolves.
 */
import {
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Switch,
  TreeSelect,
  Typography,
  type FormInstance,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, type ReactNode } from 'react';
import { confirmPasswordRules } from '@/lib/formRules';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useViewport } from '@/hooks/useViewport';
import { lengthRules } from './lengthRules';
import { rangeRules } from './rangeRules';
import { SymbolFreeInput } from './SymbolFreeInput';

interface Option {
  label: ReactNode;
  value: string | number | boolean;
  disabled?: boolean;
}

interface TreeOption {
  title: ReactNode;
  value: string | number;
  children?: TreeOption[];
  disabled?: boolean;
}

interface FieldBase {
  /** Form field name (slot and title fields use it as their React key). */
  name: string;
  label?: ReactNode;
  rules?: Rule[];
  extra?: ReactNode;
  /** Hide the field for the current values. */
  hidden?: (values: Record<string, unknown>) => boolean;
  disabled?: boolean;
  placeholder?: string;
}

export type DrawerField =
  | (FieldBase & { type: 'title' })
  | (FieldBase & { type: 'slot'; render: (form: FormInstance) => ReactNode })
  | (FieldBase & { type: 'text'; format?: (value: unknown) => ReactNode })
  | (FieldBase & {
      type: 'select';
      options: Option[];
      multiple?: boolean;
      allowClear?: boolean;
      /** type to narrow long lists */ search?: boolean;
    })
  | (FieldBase & { type: 'treeSelect'; treeData: TreeOption[]; multiple?: boolean })
  | (FieldBase & { type: 'radio'; options: Option[] })
  | (FieldBase & { type: 'switch' })
  | (FieldBase & {
      type: 'number';
      min?: number;
      max?: number;
      precision?: number;
      step?: number;
      addonAfter?: ReactNode;
    })
  | (FieldBase & { type: 'password'; maxLength?: number })
  | (FieldBase & { type: 'confirmPassword'; passwordField?: string; maxLength?: number })
  | (FieldBase & { type: 'input'; maxLength?: number; minLength?: number; textarea?: boolean; clearSymbols?: boolean });

export type FieldType = DrawerField['type'];

export interface DrawerFormProps<V extends Record<string, unknown>> {
  open: boolean;
  title: ReactNode;
  fields: DrawerField[];
  initialValues?: Partial<V>;
  /** Resolve to close the drawer; reject (ApiError) to keep it open with the errors shown. */
  onSubmit: (values: V) => Promise<unknown>;
  onClose: () => void;
  submitText?: ReactNode;
  width?: number;
}

function control(field: DrawerField, form: FormInstance): ReactNode {
  switch (field.type) {
    case 'select':
      return (
        <Select
          options={field.options as never}
          mode={field.multiple ? 'multiple' : undefined}
          allowClear={field.allowClear}
          disabled={field.disabled}
          placeholder={field.placeholder}
          showSearch={field.search ? { optionFilterProp: 'label' } : undefined}
        />
      );
    case 'treeSelect':
      return (
        <TreeSelect
          treeData={field.treeData as never}
          multiple={field.multiple}
          disabled={field.disabled}
          placeholder={field.placeholder}
          treeDefaultExpandAll
        />
      );
    case 'radio':
      return <Radio.Group options={field.options as never} disabled={field.disabled} />;
    case 'switch':
      return <Switch disabled={field.disabled} />;
    case 'number':
      return (
        // No min/max here: antd would clamp an out-of-range value silently; rangeRules refuses it.
        <InputNumber
          style={{ width: '100%' }}
          precision={field.precision}
          step={field.step}
          disabled={field.disabled}
          placeholder={field.placeholder}
          suffix={field.addonAfter}
        />
      );
    case 'password':
    case 'confirmPassword':
      return (
        <Input.Password
          maxLength={field.maxLength ?? 20}
          autoComplete="new-password"
          disabled={field.disabled}
          placeholder={field.placeholder}
        />
      );
    case 'input':
      // Spec 5: names and remarks drop emoji and special symbols (opt out with clearSymbols: false).
      if (field.clearSymbols !== false)
        return (
          <SymbolFreeInput
            maxLength={field.maxLength}
            textarea={field.textarea}
            disabled={field.disabled}
            placeholder={field.placeholder}
          />
        );
      return field.textarea ? (
        <Input.TextArea
          maxLength={field.maxLength}
          showCount={Boolean(field.maxLength)}
          autoSize={{ minRows: 3 }}
          disabled={field.disabled}
          placeholder={field.placeholder}
        />
      ) : (
        <Input maxLength={field.maxLength} disabled={field.disabled} placeholder={field.placeholder} />
      );
    case 'slot':
      return field.render(form);
    default:
      return null;
  }
}

function TextValue({ value, format }: { value?: unknown; format?: (value: unknown) => ReactNode }) {
  return (
    <Typography.Text>
      {format ? format(value) : value === undefined || value === null || value === '' ? '-' : String(value)}
    </Typography.Text>
  );
}

export function DrawerFormFields({ fields, form }: { fields: DrawerField[]; form: FormInstance }) {
  const { t } = useTranslation('shell');
  const values = Form.useWatch([], form) as Record<string, unknown> | undefined;
  return (
    <>
      {fields.map((field) => {
        if (field.hidden?.(values ?? {})) return null;
        if (field.type === 'title') {
          return (
            <Typography.Title key={field.name} level={5} style={{ marginTop: 8 }}>
              {field.label}
            </Typography.Title>
          );
        }
        if (field.type === 'slot' && !field.label) return <div key={field.name}>{field.render(form)}</div>;
        if (field.type === 'text') {
          return (
            <Form.Item key={field.name} name={field.name} label={field.label} extra={field.extra}>
              <TextValue format={field.format} />
            </Form.Item>
          );
        }
        // Every field with a length limit enforces it itself, before the api's message.
        const lengthRule =
          field.type === 'input'
            ? lengthRules(t, field.maxLength, field.minLength)
            : field.type === 'number'
              ? rangeRules(t, field.min, field.max)
              : [];
        const rules =
          field.type === 'confirmPassword'
            ? [
                ...confirmPasswordRules((key) => t(`drawerForm.${key}`), field.passwordField ?? 'password'),
                ...(field.rules ?? []),
              ]
            : [...(field.rules ?? []), ...lengthRule];
        return (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            rules={rules}
            extra={field.extra}
            valuePropName={field.type === 'switch' ? 'checked' : 'value'}
            dependencies={field.type === 'confirmPassword' ? [field.passwordField ?? 'password'] : undefined}
          >
            {control(field, form)}
          </Form.Item>
        );
      })}
    </>
  );
}

export function DrawerForm<V extends Record<string, unknown>>({
  open,
  title,
  fields,
  initialValues,
  onSubmit,
  onClose,
  submitText,
  width = 480,
}: DrawerFormProps<V>) {
  const { t } = useTranslation('shell');
  const [form] = Form.useForm<V>();
  const viewport = useViewport();

  // Reset when the drawer opens or its values really change: callers often pass a fresh object on
  // every render, and a reset then would wipe what the user typed whenever a list loads.
  const initialKey = JSON.stringify(initialValues ?? null);
  const latestInitial = useRef(initialValues);
  useEffect(() => {
    latestInitial.current = initialValues;
  });
  useEffect(() => {
    if (open) {
      form.resetFields();
      if (latestInitial.current) form.setFieldsValue(latestInitial.current as never);
    }
  }, [open, initialKey, form]);

  // Spec 9: submit debounced 500 ms; the api's field errors go on the fields.
  const { submit, submitting } = useFormSubmit<V>(form, async (values) => {
    await onSubmit(values);
    onClose();
  });

  return (
    <Drawer
      open={open}
      title={title}
      onClose={onClose}
      size={viewport === 'mobile' ? '100%' : width}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('drawerForm.cancel')}</Button>
          <Button type="primary" loading={submitting} onClick={() => form.submit()} data-testid="drawer-submit">
            {submitText ?? t('drawerForm.submit')}
          </Button>
        </Space>
      }
    >
      <Form<V> form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <DrawerFormFields fields={fields} form={form} />
      </Form>
    </Drawer>
  );
}
