/** What the driver contract fixes beyond its four calls; the reference POS and the runner both read it from here. */

/** The `product` a driver's GET /health answers when the POS behind it is the bundled reference POS: its runs are demos. */
export const REFERENCE_POS_PRODUCT = 'pos-sandbox reference POS';
