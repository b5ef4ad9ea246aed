import { notPersonal, type PersonalData } from '../privacy/personal-data.ts';

/** The catalogue holds cars, not people; some of its columns only sound personal. */
export const catalogPersonalData: PersonalData[] = [
  notPersonal('vehicles', { name: "the car's name", description: "the dealer's text about the car", registration: "the car's registration place" }),
  notPersonal('categories', { name: "the category's name" }),
  {
    table: 'car_model_additions',
    personal: { added_by: 'the admin who added the model' },
    foundBy: 'added_by',
    export: { omitted: "the team's catalogue work" },
    erase: { action: 'keep', reason: 'a car model the team added; nothing about customers' },
  },
];
