// Breaks: a feature's subfolders (here its texts' JSON) are its own; others use its public modules.
import english from '../emi/texts/en/emi.json' with { type: 'json' };

export const texts = english;
