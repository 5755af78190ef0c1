/** A filled-in contact form (POST /api/contact) that passes every check; tests add the variant and message. */
export const CONTACT_FORM = {
  firstname: 'Dana',
  lastname: 'Okafor',
  email: 'dana.okafor@example.com',
  phone: '(312) 555-0199',
  company: 'Lakeshore Medical Association',
  title: 'Meetings Director',
};
