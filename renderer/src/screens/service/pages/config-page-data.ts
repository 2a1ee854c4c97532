import type { ServicePage } from '../../../../../protocol/index.js';

/** What the host sends for the Configuration page. */
export type ConfigPageData = Extract<ServicePage, { page: 'config' }>;
export type ConfigItemData = ConfigPageData['items'][number];
