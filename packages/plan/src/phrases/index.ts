export * from './phrase';
export * from './phrases.en';
