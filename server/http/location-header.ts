/** The location header every POS call carries (§4), and the message when it is missing. */
import { companyProfileIdHeader } from '../migration/v1-habits.js';

export const LOCATION_HEADER = 'x-service-locationid';
export const LOCATION_REQUIRED = `header ${LOCATION_HEADER} is required: the identifier of the merchant location (§4)`;

/** The missing-header message; `v1Header`: the v1 CompanyProfileId header the call carries instead, named so. */
export const locationRequired = (v1Header: string | undefined): string => (v1Header === undefined ? LOCATION_REQUIRED : `${LOCATION_REQUIRED}; ${companyProfileIdHeader(v1Header)}`);
