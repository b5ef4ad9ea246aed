import { accountsPersonalData } from '../accounts/personal-data.ts';
import { adminPersonalData } from '../admin/personal-data.ts';
import { authPersonalData } from '../auth/personal-data.ts';
import { backupsPersonalData } from '../backups/personal-data.ts';
import { catalogPersonalData } from '../catalog/personal-data.ts';
import { documentsPersonalData } from '../documents/personal-data.ts';
import { inspectionsPersonalData } from '../inspections/personal-data.ts';
import { jobsPersonalData } from '../jobs/personal-data.ts';
import { leadsPersonalData } from '../leads/personal-data.ts';
import { notifyPersonalData } from '../notify/personal-data.ts';
import { paymentsPersonalData } from '../payments/personal-data.ts';
import { rentalsPersonalData } from '../rentals/personal-data.ts';
import { reservationsPersonalData } from '../reservations/personal-data.ts';
import { salesPersonalData } from '../sales/personal-data.ts';
import { purchasesPersonalData } from '../purchases/personal-data.ts';
import { securityPersonalData } from '../security/personal-data.ts';
import { testDrivesPersonalData } from '../test-drives/personal-data.ts';
import type { PersonalData } from './personal-data.ts';

/**
 * Every domain's declaration of the personal data its tables hold, the account's own first. The
 * download's sections come in this order; erasure runs it backwards, so the rows that name the
 * account go before the account itself (better-auth's user row is the very last).
 */
export const allPersonalData: PersonalData[] = [
  ...authPersonalData,
  ...accountsPersonalData,
  ...rentalsPersonalData,
  ...leadsPersonalData,
  ...inspectionsPersonalData,
  ...testDrivesPersonalData,
  ...reservationsPersonalData,
  ...salesPersonalData,
  ...purchasesPersonalData,
  ...documentsPersonalData,
  ...paymentsPersonalData,
  ...notifyPersonalData,
  ...adminPersonalData,
  ...securityPersonalData,
  ...catalogPersonalData,
  ...jobsPersonalData,
  ...backupsPersonalData,
];
