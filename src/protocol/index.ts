// The bot protocol: zod schemas for every shape a bot or a record uses, and
// the TypeScript types inferred from them. Bot authors import from here.
export * from './common';
export * from './actions';
export * from './view';
export * from './frames';
export * from './match';
export * from './events';
export * from './api';
export * from './names';
export * from './bot-check';
export * from './owner';
export * from './challenge';

export * from './webhooks';
