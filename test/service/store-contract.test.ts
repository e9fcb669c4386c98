// The Store contract, case for case, on every store (store-factories.ts).
import { storeContract } from './store-contract';
import { storeFactories } from './support/store-factories';

// Rules in transition (see ContractOptions.pending): the Postgres store has
// the new ones, and pg-store.test.ts checks them; these cases of the old ones
// go when their rewrite lands.
const NEW_RULES_ON_POSTGRES = {
  "adds keys with k_ ids and lists a user's keys (revoked included) oldest first": 'one public key belongs to one user: the case gives two users one key',
  'with maxOpen, an address gets no more links while that many are unused and unexpired; concurrent asks cannot pass it together': 'with maxOpen a new link replaces the oldest open one',
};

for (const f of storeFactories()) {
  storeContract(`${f.name} store`, f.open, f.name === 'postgres' ? { pending: NEW_RULES_ON_POSTGRES } : {});
}
