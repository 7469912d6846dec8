/**
 * The default application: an online shop of 18 services behind one gateway, with four databases
 * and caches and one outside API that send no spans of their own.
 */
import type { AppModel, ChronicError, InternalWork, LogLine, OperationDef, PeerCall, ServiceCall, ServiceDef, Severity, Template } from './model.js';
import type { Rng } from './random.js';

const SKU_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const sku = (rng: Rng) => {
  let out = '';
  for (let i = 0; i < 10; i++) out += SKU_CHARS[rng.int(0, SKU_CHARS.length - 1)];
  return out;
};
const userId = (rng: Rng) => `u-${rng.int(10000, 99999)}`;
const orderId = (rng: Rng) => `ord-${rng.hex(8)}`;
const amount = (rng: Rng) => (rng.int(199, 49999) / 100).toFixed(2);
const ms = (rng: Rng, min: number, max: number) => rng.int(min, max);
const currencies = ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'CAD'] as const;
const words = ['boots', 'lamp', 'coffee grinder', 'telescope', 'backpack', 'tent', 'kettle', 'camera strap', 'sunglasses', 'notebook'] as const;

const line = (severity: Severity, probability: number, text: Template): LogLine => ({ severity, probability, text });
const call = (service: string, operation: string, extra: Partial<ServiceCall> = {}): ServiceCall => ({
  type: 'call',
  service,
  operation,
  onError: 'propagate',
  ...extra,
});
const optional = (service: string, operation: string, extra: Partial<ServiceCall> = {}): ServiceCall =>
  call(service, operation, { onError: 'degrade', ...extra });
const peer = (name: string, statement: string, medianMs: number, extra: Partial<PeerCall> = {}): PeerCall => ({
  type: 'peer',
  peer: name,
  statement,
  medianMs,
  onError: 'propagate',
  ...extra,
});
const internal = (name: string, medianMs: number, probability?: number): InternalWork => ({ type: 'internal', name, medianMs, probability });
const op = (name: string, selfMs: number, stages: OperationDef['stages'], logs: LogLine[], chronicError?: ChronicError): OperationDef => ({
  name,
  selfMs,
  stages,
  logs,
  chronicError,
});

const services: ServiceDef[] = [
  {
    name: 'gateway',
    protocol: 'http',
    language: 'go',
    operations: [],
    background: [{ everyMs: 60_000, offsetMs: 7_000, severity: 'INFO', text: (r) => `Upstream health check: 17 of 17 services healthy in ${ms(r, 3, 40)} ms` }],
  },
  {
    name: 'frontend',
    protocol: 'http',
    language: 'nodejs',
    operations: [
      op(
        'GET /',
        3,
        [
          [
            call('catalog', 'CatalogService/ListProducts'),
            optional('recommendation', 'RecommendationService/ListRecommendations'),
            optional('ad', 'AdService/GetAds'),
          ],
          call('currency', 'CurrencyService/Convert'),
        ],
        [
          line('INFO', 1, (r) => `Rendered home page with ${r.int(8, 24)} products for session ${r.hex(8)}`),
          line('DEBUG', 0.3, (r) => `Template cache hit ratio ${r.between(0.8, 0.99).toFixed(2)}`),
          line('WARN', 0.03, (r) => `Request from deprecated client version 3.${r.int(0, 4)}.${r.int(0, 9)}; please upgrade`),
        ],
      ),
      op(
        'GET /product/{id}',
        4,
        [
          call('catalog', 'CatalogService/GetProduct'),
          [
            call('pricing', 'PricingService/GetPrice'),
            call('inventory', 'InventoryService/CheckStock'),
            optional('review', 'ReviewService/ListReviews'),
            optional('recommendation', 'RecommendationService/ListRecommendations'),
            optional('ad', 'AdService/GetAds'),
          ],
        ],
        [
          line('INFO', 1, (r) => `Rendered product page for ${sku(r)} in ${ms(r, 5, 60)} ms`),
          line('INFO', 0.5, (r) => `Product ${sku(r)} viewed by ${userId(r)}`),
        ],
      ),
      op(
        'GET /search',
        3,
        [call('search', 'SearchService/Query'), call('pricing', 'PricingService/GetPrice'), optional('ad', 'AdService/GetAds')],
        [line('INFO', 1, (r) => `Search for "${r.pick(words)}" returned ${r.int(0, 40)} results`)],
      ),
      op(
        'POST /cart/add',
        2,
        [call('inventory', 'InventoryService/CheckStock'), call('cart', 'CartService/AddItem')],
        [line('INFO', 1, (r) => `Added ${r.int(1, 4)} x ${sku(r)} to cart of ${userId(r)}`)],
      ),
      op(
        'GET /cart',
        2,
        [call('cart', 'CartService/GetCart'), [call('pricing', 'PricingService/GetPrice'), optional('shipping', 'POST /quote')]],
        [line('INFO', 1, (r) => `Cart of ${userId(r)} shown with ${r.int(1, 9)} items`)],
      ),
      op(
        'POST /checkout',
        3,
        [call('checkout', 'CheckoutService/PlaceOrder')],
        [line('INFO', 1, (r) => `Checkout submitted by ${userId(r)}`), line('INFO', 0.8, (r) => `Order ${orderId(r)} confirmation page rendered`)],
      ),
      op(
        'POST /login',
        2,
        [call('auth', 'AuthService/Login')],
        [line('INFO', 1, (r) => `Login form submitted from ${r.int(10, 250)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`)],
      ),
      op(
        'GET /account',
        2,
        [call('user', 'UserService/GetProfile'), call('checkout', 'CheckoutService/ListOrders')],
        [line('INFO', 1, (r) => `Account page for ${userId(r)} with ${r.int(0, 30)} past orders`)],
      ),
    ],
  },
  {
    name: 'auth',
    protocol: 'grpc',
    rpcService: 'oteldemo.AuthService',
    language: 'java',
    operations: [
      op(
        'AuthService/VerifyToken',
        1.5,
        [peer('cart-cache', 'GET session', 0.6)],
        [
          line('INFO', 1, (r) => `Token verified for ${userId(r)}, scopes=[shop:read shop:write]`),
          line('WARN', 0.04, (r) => `Token for ${userId(r)} expires in ${r.int(5, 60)} s, refresh advised`),
        ],
      ),
      op(
        'AuthService/Login',
        4,
        [call('user', 'UserService/GetUser'), internal('bcrypt.verify', 25), peer('cart-cache', 'SET session', 0.6)],
        [line('INFO', 1, (r) => `User ${userId(r)} logged in`), line('WARN', 0.05, (r) => `Failed login attempt ${r.int(1, 4)} of 5 for ${userId(r)}`)],
      ),
    ],
  },
  {
    name: 'user',
    protocol: 'grpc',
    rpcService: 'oteldemo.UserService',
    language: 'java',
    operations: [
      op('UserService/GetUser', 1.5, [peer('users-db', 'SELECT users', 2)], [line('INFO', 1, (r) => `Loaded user ${userId(r)} from users-db`)]),
      op(
        'UserService/GetProfile',
        2,
        [peer('users-db', 'SELECT users', 2), peer('users-db', 'SELECT addresses', 1.5)],
        [line('INFO', 1, (r) => `Profile of ${userId(r)} loaded with ${r.int(1, 4)} addresses`)],
      ),
    ],
    background: [{ everyMs: 300_000, offsetMs: 61_000, severity: 'INFO', text: (r) => `Purged ${r.int(0, 120)} expired sessions in ${ms(r, 10, 300)} ms` }],
  },
  {
    name: 'catalog',
    protocol: 'grpc',
    rpcService: 'oteldemo.CatalogService',
    language: 'go',
    operations: [
      op(
        'CatalogService/ListProducts',
        2,
        [peer('catalog-db', 'SELECT products', 4)],
        [
          line('INFO', 1, (r) => `Listed ${r.int(8, 48)} products in category ${r.pick(words)}`),
          line('WARN', 0.02, (r) => `Slow query on catalog-db: SELECT products took ${ms(r, 200, 900)} ms`),
        ],
      ),
      op('CatalogService/GetProduct', 1, [peer('catalog-db', 'SELECT products', 1.5)], [line('INFO', 1, (r) => `Fetched product ${sku(r)}`)]),
    ],
    background: [
      {
        everyMs: 300_000,
        offsetMs: 12_000,
        severity: 'INFO',
        text: (r) => `Catalog cache refresh completed in ${ms(r, 80, 900)} ms, ${r.int(900, 1200)} products`,
      },
    ],
  },
  {
    name: 'search',
    protocol: 'grpc',
    rpcService: 'oteldemo.SearchService',
    language: 'python',
    operations: [
      op(
        'SearchService/Query',
        6,
        [internal('tokenize query', 1.2), [call('catalog', 'CatalogService/GetProduct', { copies: [1, 4] })]],
        [
          line('INFO', 1, (r) => `Query "${r.pick(words)}" matched ${r.int(1, 300)} documents in ${ms(r, 2, 30)} ms`),
          line('DEBUG', 0.4, (r) => `Spelling suggestion considered for "${r.pick(words)}"`),
        ],
      ),
    ],
    background: [
      {
        everyMs: 120_000,
        offsetMs: 33_000,
        severity: 'INFO',
        text: (r) => `Search index merge finished: ${r.int(2, 12)} segments into 1 in ${ms(r, 100, 2000)} ms`,
      },
    ],
  },
  {
    name: 'recommendation',
    protocol: 'grpc',
    rpcService: 'oteldemo.RecommendationService',
    language: 'python',
    operations: [
      op(
        'RecommendationService/ListRecommendations',
        5,
        [
          call('catalog', 'CatalogService/ListProducts'),
          call('ad', 'AdService/GetAds', {
            chronicFailure: { rate: 0.03, message: () => 'no instances available for ad', exceptionType: 'grpc.aio.AioRpcError', exceptionEvent: true },
          }),
        ],
        [
          line('INFO', 1, (r) => `Recommended ${r.int(3, 8)} products for ${userId(r)}`),
          line('DEBUG', 0.3, (r) => `Model version 2024.${r.int(1, 12)} scored ${r.int(20, 200)} candidates`),
        ],
      ),
    ],
  },
  {
    name: 'ad',
    protocol: 'grpc',
    rpcService: 'oteldemo.AdService',
    language: 'java',
    operations: [op('AdService/GetAds', 3, [internal('rank ads', 1.5)], [line('INFO', 1, (r) => `Served ${r.int(1, 3)} ads for context ${r.pick(words)}`)])],
  },
  {
    name: 'cart',
    protocol: 'grpc',
    rpcService: 'oteldemo.CartService',
    language: 'dotnet',
    operations: [
      op(
        'CartService/GetCart',
        1,
        [peer('cart-cache', 'HGETALL cart', 0.7)],
        [line('INFO', 1, (r) => `Cart of ${userId(r)} loaded with ${r.int(0, 9)} items`)],
      ),
      op(
        'CartService/AddItem',
        1.5,
        [peer('cart-cache', 'HGETALL cart', 0.7), peer('cart-cache', 'HSET cart', 0.8), peer('cart-cache', 'EXPIRE cart', 0.4)],
        [line('INFO', 1, (r) => `Item ${sku(r)} added, cart of ${userId(r)} now holds ${r.int(1, 9)} items`)],
      ),
      op('CartService/EmptyCart', 1, [peer('cart-cache', 'DEL cart', 0.5)], [line('INFO', 1, (r) => `Cart of ${userId(r)} emptied`)]),
    ],
  },
  {
    name: 'checkout',
    protocol: 'grpc',
    rpcService: 'oteldemo.CheckoutService',
    language: 'java',
    operations: [
      op(
        'CheckoutService/PlaceOrder',
        6,
        [
          call('cart', 'CartService/GetCart'),
          [call('pricing', 'PricingService/GetPrice'), call('currency', 'CurrencyService/Convert')],
          call('inventory', 'InventoryService/ReserveStock'),
          call('shipping', 'POST /quote'),
          call('payment', 'POST /charge'),
          peer('orders-db', 'INSERT orders', 3),
          [optional('email', 'POST /send'), optional('cart', 'CartService/EmptyCart')],
        ],
        [
          line('INFO', 1, (r) => `Order ${orderId(r)} placed by ${userId(r)}: ${r.int(1, 6)} items, total ${amount(r)} ${r.pick(currencies)}`),
          line('INFO', 0.7, (r) => `Reserved stock for order ${orderId(r)}`),
          line('DEBUG', 0.3, (r) => `Checkout saga step timings recorded (${ms(r, 20, 200)} ms)`),
        ],
      ),
      op('CheckoutService/ListOrders', 2, [peer('orders-db', 'SELECT orders', 3)], [line('INFO', 1, (r) => `Listed ${r.int(0, 30)} orders for ${userId(r)}`)]),
    ],
    background: [
      {
        everyMs: 300_000,
        offsetMs: 150_000,
        severity: 'INFO',
        text: (r) => `Abandoned checkout sweep: ${r.int(0, 40)} carts released in ${ms(r, 20, 400)} ms`,
      },
    ],
  },
  {
    name: 'pricing',
    protocol: 'grpc',
    rpcService: 'oteldemo.PricingService',
    language: 'java',
    operations: [
      op(
        'PricingService/GetPrice',
        2,
        [peer('catalog-db', 'SELECT prices', 1.5), call('currency', 'CurrencyService/Convert')],
        [line('INFO', 1, (r) => `Price for ${sku(r)} is ${amount(r)} ${r.pick(currencies)}`), line('DEBUG', 0.2, (r) => `Applied ${r.int(0, 3)} promotions`)],
      ),
    ],
    background: [
      { everyMs: 300_000, offsetMs: 95_000, severity: 'INFO', text: (r) => `Price list refresh completed in ${ms(r, 50, 700)} ms, ${r.int(900, 1200)} prices` },
    ],
  },
  {
    name: 'currency',
    protocol: 'grpc',
    rpcService: 'oteldemo.CurrencyService',
    language: 'cpp',
    operations: [op('CurrencyService/Convert', 0.8, [], [line('INFO', 1, (r) => `Converted ${amount(r)} ${r.pick(currencies)} to ${r.pick(currencies)}`)])],
    background: [
      {
        everyMs: 600_000,
        offsetMs: 240_000,
        severity: 'INFO',
        text: (r) => `Exchange rates updated from ECB feed (${r.int(30, 33)} currencies) in ${ms(r, 100, 900)} ms`,
      },
    ],
  },
  {
    name: 'inventory',
    protocol: 'grpc',
    rpcService: 'oteldemo.InventoryService',
    language: 'go',
    operations: [
      op('InventoryService/CheckStock', 1.5, [peer('orders-db', 'SELECT stock', 1.5)], [line('INFO', 1, (r) => `Stock for ${sku(r)}: ${r.int(0, 500)} units`)]),
      op(
        'InventoryService/ReserveStock',
        2,
        [peer('orders-db', 'UPDATE stock', 2.5)],
        [line('INFO', 1, (r) => `Reserved ${r.int(1, 6)} units of ${sku(r)}`), line('WARN', 0.05, (r) => `Low stock for ${sku(r)}: ${r.int(1, 9)} units left`)],
      ),
    ],
    background: [
      { everyMs: 120_000, offsetMs: 45_000, severity: 'INFO', text: (r) => `Stock sync finished: ${r.int(0, 80)} items updated in ${ms(r, 40, 600)} ms` },
    ],
  },
  {
    name: 'payment',
    protocol: 'http',
    language: 'nodejs',
    operations: [
      op(
        'POST /charge',
        8,
        [call('fraud', 'FraudService/Score'), internal('tokenize card', 2)],
        [
          line('INFO', 1, (r) => `Charging ${amount(r)} ${r.pick(currencies)} on card ending ${r.int(1000, 9999)}`),
          line('INFO', 0.9, (r) => `Transaction tx-${r.hex(8)} authorized`),
        ],
        { rate: 0.02, message: () => 'card declined', exceptionType: 'PaymentDeclinedError', exceptionEvent: false },
      ),
    ],
  },
  {
    name: 'fraud',
    protocol: 'grpc',
    rpcService: 'oteldemo.FraudService',
    language: 'kotlin',
    operations: [
      op(
        'FraudService/Score',
        3,
        [peer('users-db', 'SELECT risk_profiles', 1.5), internal('model.predict', 4)],
        [line('INFO', 1, (r) => `Fraud score ${r.between(0, 0.4).toFixed(3)} for ${userId(r)}`)],
      ),
    ],
  },
  {
    name: 'shipping',
    protocol: 'http',
    language: 'rust',
    operations: [
      op(
        'POST /quote',
        2,
        [
          peer('carrier-api', 'POST /rates', 25, {
            chronicFailure: { rate: 0.04, message: () => 'timeout of 1000ms exceeded', exceptionType: 'reqwest::Error', exceptionEvent: true, extraMs: 1000 },
          }),
        ],
        [line('INFO', 1, (r) => `Shipping quote ${amount(r)} USD for ${r.int(1, 6)} items to zone ${r.int(1, 9)}`)],
      ),
    ],
  },
  {
    name: 'email',
    protocol: 'http',
    language: 'ruby',
    operations: [
      op(
        'POST /send',
        3,
        [internal('render template', 3)],
        [line('INFO', 1, (r) => `Order confirmation sent to ${userId(r)}@example.com (${r.int(8, 40)} KB)`)],
      ),
    ],
  },
  {
    name: 'review',
    protocol: 'grpc',
    rpcService: 'oteldemo.ReviewService',
    language: 'python',
    operations: [
      op(
        'ReviewService/ListReviews',
        2,
        [peer('catalog-db', 'SELECT reviews', 2)],
        [line('INFO', 1, (r) => `Loaded ${r.int(0, 120)} reviews for ${sku(r)}, average ${r.between(2.5, 5).toFixed(1)} stars`)],
      ),
    ],
  },
];

/** The default shop. */
export function shopModel(): AppModel {
  return {
    gateway: 'gateway',
    rootSpanName: 'GET /*',
    rootRoute: '/*',
    gatewayStages: [call('auth', 'AuthService/VerifyToken')],
    gatewayLogs: [line('INFO', 1, (r) => `Proxied request ${r.hex(8)} upstream`)],
    requestTypes: [
      { name: 'home', weight: 18, path: () => '/', entry: { service: 'frontend', operation: 'GET /' } },
      { name: 'product', weight: 28, path: (r) => `/product/${sku(r)}`, entry: { service: 'frontend', operation: 'GET /product/{id}' } },
      { name: 'search', weight: 14, path: (r) => `/search?q=${encodeURIComponent(r.pick(words))}`, entry: { service: 'frontend', operation: 'GET /search' } },
      { name: 'add to cart', weight: 12, path: () => '/cart/add', entry: { service: 'frontend', operation: 'POST /cart/add' } },
      { name: 'view cart', weight: 8, path: () => '/cart', entry: { service: 'frontend', operation: 'GET /cart' } },
      { name: 'checkout', weight: 10, path: () => '/checkout', entry: { service: 'frontend', operation: 'POST /checkout' } },
      { name: 'login', weight: 6, path: () => '/login', entry: { service: 'frontend', operation: 'POST /login' } },
      { name: 'account', weight: 4, path: () => '/account', entry: { service: 'frontend', operation: 'GET /account' } },
    ],
    services,
    peers: [
      { name: 'orders-db', system: 'postgresql', dbName: 'orders' },
      { name: 'users-db', system: 'postgresql', dbName: 'users' },
      { name: 'catalog-db', system: 'mysql', dbName: 'catalog' },
      { name: 'cart-cache', system: 'redis', dbName: '0' },
      { name: 'carrier-api', system: 'http' },
    ],
  };
}
