import { post, put } from './client';
import { readKey } from './read';

/** The provincial data interface (dataInterface.index): an account's connectors, mapping and delivery log. */
export interface Connector {
  connectorId: number;
  name: string;
  endpoint: string;
  appId: string;
  /** The secret itself is write-only: never answered. */
  secretSet: boolean;
  intervalMinutes: number;
  enabled: boolean;
  mappingCount: number;
  gmtCreate: string;
  gmtModified: string;
}

export interface ConnectorInput {
  name?: string;
  endpoint?: string;
  appId?: string;
  /** Empty on an update keeps the stored secret. */
  secret?: string;
  intervalMinutes?: number;
  enabled?: boolean;
}

export type TargetType = 'device' | 'storage';

export interface ConnectorTarget {
  targetType: TargetType;
  targetId: number;
  targetName: string;
}

export interface MappingItem extends ConnectorTarget {
  equipmentCode: string;
}

export type DeliveryStatus = 'pending' | 'sending' | 'accepted' | 'refused' | 'failed';
export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'sending', 'accepted', 'refused', 'failed'];
export const INTERVALS = [1, 5, 10, 15, 30, 60];

export interface Delivery {
  deliveryId: number;
  batchNo: string;
  windowStart: string;
  windowEnd: string;
  status: DeliveryStatus;
  attempts: number;
  recordCount: number | null;
  remoteCode: string | null;
  remoteMessage: string | null;
  sentAt: string | null;
  finishedAt: string | null;
  nextAttemptAt: string | null;
}

const BASE = '/dataInterface';

export const connectorsKey = () => readKey(`${BASE}/Connector/list`);
export const targetsKey = () => readKey(`${BASE}/Connector/targets`);
export const mappingKey = (connectorId: number) => readKey(`${BASE}/Connector/mapping`, { connectorId });
export const deliveryPageKey = (args: {
  start: number;
  pageSize: number;
  connectorId: number;
  status?: DeliveryStatus;
}) => readKey(`${BASE}/Delivery/queryPage`, args, 'post');

export const insertConnector = (input: ConnectorInput) => post<Connector>(`${BASE}/Connector/insert`, input);
export const updateConnector = (connectorId: number, input: ConnectorInput) =>
  put<Connector>(`${BASE}/Connector/update`, { connectorId, ...input });
export const deleteConnector = (connectorId: number) => post<null>(`${BASE}/Connector/delete`, { connectorId });
export const saveMapping = (
  connectorId: number,
  items: Pick<MappingItem, 'targetType' | 'targetId' | 'equipmentCode'>[],
) => put<MappingItem[]>(`${BASE}/Connector/mapping`, { connectorId, items });
