import { paths } from '../lib/paths.ts';

/** The menu of the top bar's dropdown and of the drawer, in the spec's order. */
export const menuLinks = [
  { to: paths.home, label: 'Home' },
  { to: paths.categories(), label: 'Categories' },
  { to: paths.rent(), label: 'Rent a car' },
  { to: paths.wishlist, label: 'Wishlist' },
  { to: paths.profile, label: 'Profile' },
  { to: paths.about, label: 'About Us' },
  { to: paths.contact, label: 'Contact' },
  { to: paths.requestVehicle, label: 'Request Vehicle' },
  { to: paths.sellVehicle, label: 'Sell Vehicle' },
] as const;
