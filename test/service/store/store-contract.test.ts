// The Store contract, case for case, on every store (store-factories.ts).
import { storeContract } from './store-contract';
import { storeFactories } from '../support/store-factories';

for (const f of storeFactories()) storeContract(`${f.name} store`, f.open);
