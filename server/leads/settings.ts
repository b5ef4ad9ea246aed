import { z } from 'zod';
import { SELL_MARGIN_PERCENT } from '../../app/features/sell/estimate-schemas.ts';
import { declareSettings, say } from '../settings/declarations.ts';

/**
 * Sellers' settings: the estimate's margin (decision 081), taken off the shop's prices of similar
 * cars for checks, repairs, warranty and profit; and inspections of sellers' cars, their own hours
 * (10 am to 6 pm) and how many run at once (two). The notice, the days ahead and the PIN codes
 * served are the test drives'.
 */
export const sellerSettings = declareSettings('leads', {
  sellEstimateMarginPercent: {
    schema: z.coerce
      .number(say('marginNumber'))
      .int(say('marginWhole'))
      .min(SELL_MARGIN_PERCENT.min, say('marginRange', SELL_MARGIN_PERCENT))
      .max(SELL_MARGIN_PERCENT.max, say('marginRange', SELL_MARGIN_PERCENT)),
    default: SELL_MARGIN_PERCENT.usual,
    label: 'sellEstimateMarginPercentLabel',
  },
  inspectionOpeningHour: {
    schema: z.coerce.number().int(say('openingHourWhole')).min(0, say('openingHourRange')).max(23, say('openingHourRange')),
    default: 10,
    label: 'inspectionOpeningHourLabel',
  },
  inspectionClosingHour: {
    schema: z.coerce.number().int(say('closingHourWhole')).min(1, say('closingHourRange')).max(24, say('closingHourRange')),
    default: 18,
    label: 'inspectionClosingHourLabel',
  },
  inspectionCapacity: {
    schema: z.coerce.number().int(say('inspectionsAtOnceWhole')).min(1, say('inspectionsAtOnceRange')).max(20, say('inspectionsAtOnceRange')),
    default: 2,
    label: 'inspectionCapacityLabel',
  },
});
