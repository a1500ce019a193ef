/** The location header every POS call carries (§4), and the message when it is missing. */
export const LOCATION_HEADER = 'x-service-locationid';
export const LOCATION_REQUIRED = `header ${LOCATION_HEADER} is required: the identifier of the merchant location (§4)`;
