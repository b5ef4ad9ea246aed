/** Vehicles per listing page until the admin's Items Per Page setting says otherwise. */
export const DEFAULT_PER_PAGE = 10;
