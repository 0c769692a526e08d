import { Button, Col, Drawer, Form, Input, Radio, Row, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import { insertCustomPage, updateCustomPage, type CustomPage, type CustomPageInput } from '@/api/customization';
import { COLOUR_PATTERN } from '@/lib/formRules';
import { showServerErrors } from '@/lib/serverErrors';
import { ColourInput } from '@/components/ui/ColourInput';
import { useViewport } from '@/hooks/useViewport';
import { STYLE_MODELS } from '@/theme/styleModels';
import { BrandingUpload } from './BrandingUpload';
import { LoginPreview } from './LoginPreview';
import { SellerFields } from './SellerFields';

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

interface FormValues {
  enterpriseName: string;
  titleZh?: string;
  titleEn?: string;
  topDomain: string;
  domains: string[];
  https: boolean;
  loginPage: string;
  themeColor: string;
  styleModel: string;
  defaultLocale: string;
  enableRegister: boolean;
  independent: boolean;
  loginLogo?: string | null;
  indexLogo?: string | null;
  loginBackground?: string | null;
  browserLogo?: string | null;
  recordCompany?: string;
  recordNumber?: string;
  recordLink?: string;
  companyAddress?: string;
  taxId?: string;
  remark?: string;
  adminUserName?: string;
  adminEmail?: string;
  adminPhone?: string;
}

const ERROR_ALIASES = {
  title: 'titleZh',
  'admin.userName': 'adminUserName',
  'admin.email': 'adminEmail',
  'admin.phone': 'adminPhone',
};

function initialValues(page: CustomPage | null): FormValues {
  return {
    enterpriseName: page?.enterpriseName ?? '',
    titleZh: page?.titles?.['zh-CN'] ?? '',
    titleEn: page?.titles?.['en-US'] ?? '',
    topDomain: page?.topDomain ?? '',
    domains: (page?.domains ?? []).filter((d) => d !== page?.topDomain),
    https: page?.https ?? true,
    loginPage: page?.loginPage ?? 'default',
    themeColor: page?.themeColor ?? '#ec6c00',
    styleModel: page?.styleModel ?? 'default',
    defaultLocale: page?.defaultLocale ?? 'zh-CN',
    enableRegister: page?.enableRegister ?? false,
    independent: page?.independent ?? true,
    loginLogo: page?.loginLogo ?? null,
    indexLogo: page?.indexLogo ?? null,
    loginBackground: page?.loginBackground ?? null,
    browserLogo: page?.browserLogo ?? null,
    recordCompany: page?.recordCompany ?? '',
    recordNumber: page?.recordNumber ?? '',
    recordLink: page?.recordLink ?? '',
    companyAddress: page?.companyAddress ?? '',
    taxId: page?.taxId ?? '',
    remark: page?.remark ?? '',
  };
}

const orNull = (value?: string | null) => (value && value.trim() ? value.trim() : null);

function toInput(values: FormValues, full: boolean): CustomPageInput {
  const title: Record<string, string> = {};
  if (values.titleZh?.trim()) title['zh-CN'] = values.titleZh.trim();
  if (values.titleEn?.trim()) title['en-US'] = values.titleEn.trim();
  const branding: CustomPageInput = {
    enterpriseName: values.enterpriseName,
    title,
    loginPage: values.loginPage,
    themeColor: values.themeColor,
    styleModel: values.styleModel,
    defaultLocale: values.defaultLocale,
    loginLogo: values.loginLogo ?? null,
    indexLogo: values.indexLogo ?? null,
    loginBackground: values.loginBackground ?? null,
    browserLogo: values.browserLogo ?? null,
    recordCompany: orNull(values.recordCompany),
    recordNumber: orNull(values.recordNumber),
    recordLink: orNull(values.recordLink),
    companyAddress: orNull(values.companyAddress),
    taxId: orNull(values.taxId),
  };
  if (!full) return branding;
  const admin = values.adminUserName?.trim()
    ? {
        userName: values.adminUserName.trim(),
        email: orNull(values.adminEmail) ?? undefined,
        phone: orNull(values.adminPhone) ?? undefined,
      }
    : null;
  return {
    ...branding,
    topDomain: values.topDomain.trim().toLowerCase(),
    domains: values.domains.map((d) => d.trim().toLowerCase()).filter(Boolean),
    https: values.https,
    enableRegister: values.enableRegister,
    independent: values.independent,
    remark: orNull(values.remark),
    ...(admin ? { admin } : {}),
  };
}

/**
 * The customization drawer: every field of business-domain section 3 for the operator, the reduced
 * branding form for a reseller admin (`full` false), and a preview of the login page with the draft.
 */
export function CustomPageForm({
  open,
  page,
  full,
  onClose,
  onSaved,
}: {
  open: boolean;
  page: CustomPage | null;
  full: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation('customization');
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const viewport = useViewport();
  const draft = Form.useWatch([], form) as FormValues | undefined;
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(initialValues(page));
    }
  }, [open, page, form]);

  const submit = async (values: FormValues) => {
    setSaving(true);
    try {
      const input = toInput(values, full);
      if (page) await updateCustomPage({ ...input, id: page.id });
      else await insertCustomPage(input);
      onSaved();
      onClose();
    } catch (error) {
      showServerErrors(form, error, ERROR_ALIASES);
    } finally {
      setSaving(false);
    }
  };

  const required = { required: true, message: t('form.required') };
  const remarkRule = { min: 1, max: 50, message: t('form.length', { min: 1, max: 50 }) };
  const previewTitle =
    (language === 'en-US' ? draft?.titleEn || draft?.titleZh : draft?.titleZh || draft?.titleEn) ?? '';
  return (
    <Drawer
      open={open}
      title={page ? t('form.editTitle') : t('form.addTitle')}
      onClose={onClose}
      size={viewport === 'mobile' ? '100%' : 960}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="custom-page-save">
            {t('form.save')}
          </Button>
        </Space>
      }
    >
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Form<FormValues>
            form={form}
            layout="vertical"
            name="customPage"
            onFinish={submit}
            initialValues={initialValues(page)}
          >
            <Form.Item
              name="enterpriseName"
              label={t('field.enterpriseName')}
              rules={[required, { max: 100, message: t('form.max', { max: 100 }) }]}
            >
              <Input maxLength={100} />
            </Form.Item>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="titleZh"
                  label={t('field.titleZh')}
                  rules={[{ max: 100, message: t('form.max', { max: 100 }) }]}
                >
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="titleEn"
                  label={t('field.titleEn')}
                  rules={[{ max: 100, message: t('form.max', { max: 100 }) }]}
                >
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
            </Row>
            {full ? (
              <>
                <Form.Item
                  name="topDomain"
                  label={t('field.topDomain')}
                  rules={[required, { pattern: HOST, message: t('form.domain') }]}
                >
                  <Input placeholder="acme.example.com" />
                </Form.Item>
                <Form.Item
                  name="domains"
                  label={t('field.domains')}
                  rules={[
                    {
                      validator: (_, value: string[] = []) =>
                        value.every((d) => HOST.test(d.trim().toLowerCase()))
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('form.domain'))),
                    },
                  ]}
                >
                  <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
                </Form.Item>
              </>
            ) : null}
            <Row gutter={12}>
              {full ? (
                <Col xs={12} md={6}>
                  <Form.Item name="https" label={t('field.https')} valuePropName="checked" rules={[required]}>
                    <Switch />
                  </Form.Item>
                </Col>
              ) : null}
              {full ? (
                <Col xs={12} md={6}>
                  <Form.Item
                    name="enableRegister"
                    label={t('field.enableRegister')}
                    valuePropName="checked"
                    rules={[required]}
                  >
                    <Switch />
                  </Form.Item>
                </Col>
              ) : null}
              {full ? (
                <Col xs={12} md={6}>
                  <Form.Item
                    name="independent"
                    label={t('field.independent')}
                    valuePropName="checked"
                    rules={[required]}
                  >
                    <Switch />
                  </Form.Item>
                </Col>
              ) : null}
            </Row>
            <Form.Item name="loginPage" label={t('field.loginPage')} rules={[required]}>
              <Radio.Group
                options={[
                  { value: 'default', label: t('loginPage.default') },
                  { value: 'simple', label: t('loginPage.simple') },
                ]}
              />
            </Form.Item>
            <Row gutter={12}>
              <Col span={8}>
                <Form.Item
                  name="themeColor"
                  label={t('field.themeColor')}
                  rules={[required, { pattern: COLOUR_PATTERN, message: t('form.colour') }]}
                >
                  <ColourInput />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="styleModel" label={t('field.styleModel')} rules={[required]}>
                  <Select
                    options={Object.values(STYLE_MODELS).map((m) => ({
                      value: m.name,
                      label: m.label[language] ?? m.name,
                    }))}
                  />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="defaultLocale" label={t('field.defaultLocale')} rules={[required]}>
                  <Select
                    options={[
                      { value: 'zh-CN', label: '简体中文' },
                      { value: 'en-US', label: 'English' },
                    ]}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Typography.Title level={5}>{t('section.images')}</Typography.Title>
            <Form.Item name="loginLogo" label={t('field.loginLogo')} extra={t('upload.imageHint')}>
              <BrandingUpload field="loginLogo" />
            </Form.Item>
            <Form.Item name="indexLogo" label={t('field.indexLogo')} extra={t('upload.imageHint')}>
              <BrandingUpload field="indexLogo" />
            </Form.Item>
            <Form.Item name="loginBackground" label={t('field.loginBackground')} extra={t('upload.imageHint')}>
              <BrandingUpload field="loginBackground" />
            </Form.Item>
            <Form.Item name="browserLogo" label={t('field.browserLogo')} extra={t('upload.iconHint')}>
              <BrandingUpload field="browserLogo" />
            </Form.Item>
            <Typography.Title level={5}>{t('section.record')}</Typography.Title>
            <Form.Item
              name="recordCompany"
              label={t('field.recordCompany')}
              rules={[{ max: 100, message: t('form.max', { max: 100 }) }]}
            >
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item
              name="recordNumber"
              label={t('field.recordNumber')}
              rules={[{ max: 100, message: t('form.max', { max: 100 }) }]}
            >
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item
              name="recordLink"
              label={t('field.recordLink')}
              rules={[{ type: 'url', message: t('form.url') }]}
            >
              <Input placeholder="https://beian.miit.gov.cn/" />
            </Form.Item>
            <SellerFields />
            {full ? (
              <>
                <Form.Item name="remark" label={t('field.remark')} rules={[remarkRule]}>
                  <Input.TextArea maxLength={50} showCount autoSize={{ minRows: 2 }} />
                </Form.Item>
                <Typography.Title level={5}>{t('section.admin')}</Typography.Title>
                {page?.adminUserName ? (
                  <Typography.Paragraph type="secondary">
                    {t('admin.current', { name: page.adminUserName })}
                  </Typography.Paragraph>
                ) : null}
                <Form.Item name="adminUserName" label={t('field.adminUserName')} extra={t('admin.hint')}>
                  <Input maxLength={50} autoComplete="off" />
                </Form.Item>
                <Row gutter={12}>
                  <Col span={12}>
                    <Form.Item
                      name="adminEmail"
                      label={t('field.adminEmail')}
                      rules={[{ type: 'email', message: t('form.email') }]}
                    >
                      <Input maxLength={254} />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="adminPhone" label={t('field.adminPhone')}>
                      <Input maxLength={20} />
                    </Form.Item>
                  </Col>
                </Row>
              </>
            ) : null}
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          {/* Stays in view while the long form scrolls. */}
          <div style={{ position: 'sticky', top: 0 }}>
            <Typography.Title level={5}>{t('preview.title')}</Typography.Title>
            <LoginPreview
              branding={{
                title: previewTitle,
                themeColor: draft?.themeColor ?? '#ec6c00',
                loginLogo: draft?.loginLogo,
                loginBackground: draft?.loginBackground,
                loginPage: draft?.loginPage,
                recordCompany: draft?.recordCompany,
                recordNumber: draft?.recordNumber,
              }}
            />
          </div>
        </Col>
      </Row>
    </Drawer>
  );
}
