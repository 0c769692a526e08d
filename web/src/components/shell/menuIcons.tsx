import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BellOutlined,
  BgColorsOutlined,
  CarOutlined,
  CloudOutlined,
  DatabaseOutlined,
  HddOutlined,
  HomeOutlined,
  InboxOutlined,
  NotificationOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  ToolOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icon names used by themes/<model>/theme.json menus. */
export const MENU_ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  bell: <BellOutlined />,
  device: <HddOutlined />,
  storage: <DatabaseOutlined />,
  freezer: <InboxOutlined />,
  waybill: <CarOutlined />,
  asset: <AppstoreOutlined />,
  project: <ProjectOutlined />,
  organization: <ApartmentOutlined />,
  fda: <SafetyCertificateOutlined />,
  user: <UserOutlined />,
  operation: <ToolOutlined />,
  brush: <BgColorsOutlined />,
  cloud: <CloudOutlined />,
  notice: <NotificationOutlined />,
  api: <ApiOutlined />,
};
