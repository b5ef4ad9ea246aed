/** Search terms are cut to this length: nobody types a longer car name (the search box's maxLength too). */
export const MAX_SEARCH_LENGTH = 100;
