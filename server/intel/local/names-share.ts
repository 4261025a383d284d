/** The share of a listing's or directory tree's tokens its summary may take: there the names are the content. */
export const NAMES_SHARE = 0.3;
