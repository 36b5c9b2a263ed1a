import type { IndustryId, IndustryPack } from './industry-types.ts';

/** Sample people shared by every industry's tables and testimonials (fictional). */
const PEOPLE = ['Olivia Bennett', 'Marcus Reed', 'Sofia Alvarez', 'Daniel Kim', 'Hannah Novak'];

export const INDUSTRIES_EN: Record<IndustryId, IndustryPack> = {
  technology: {
    brand: 'Nimbus Labs',
    hero: {
      eyebrow: 'Software that scales with you',
      title: 'Ship faster with a platform your team will love',
      lead: 'Automate the busywork, connect your tools and see every metric that matters in one secure workspace.',
    },
    offerings: [
      {
        icon: 'zap',
        title: 'Automation',
        text: 'Workflows that run themselves, from onboarding to billing.',
      },
      {
        icon: 'layers',
        title: 'Integrations',
        text: 'Connect the 40+ tools you already use in a couple of clicks.',
      },
      {
        icon: 'shield',
        title: 'Enterprise security',
        text: 'SSO, audit logs and encryption at rest by default.',
      },
    ],
    stats: [
      { value: '99.98%', label: 'uptime' },
      { value: '3×', label: 'faster releases' },
      { value: '24/7', label: 'expert support' },
    ],
    entity: { one: 'account', many: 'Accounts' },
    kpis: [
      { label: 'Monthly recurring revenue', value: '$84.2k', delta: '+12.4%', up: true },
      { label: 'Active users', value: '12,480', delta: '+8.1%', up: true },
      { label: 'Churn', value: '1.9%', delta: '-0.4 pt', up: true },
      { label: 'Open tickets', value: '37', delta: '+5', up: false },
    ],
    columns: ['Account', 'Plan', 'Status', 'MRR'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Enterprise', status: 'ok', amount: '$2,400' },
      { name: PEOPLE[1]!, detail: 'Growth', status: 'new', amount: '$890' },
      { name: PEOPLE[2]!, detail: 'Growth', status: 'ok', amount: '$890' },
      { name: PEOPLE[3]!, detail: 'Starter', status: 'pending', amount: '$190' },
      { name: PEOPLE[4]!, detail: 'Enterprise', status: 'ok', amount: '$3,100' },
    ],
    products: [
      { name: 'Starter', price: '$19' },
      { name: 'Growth', price: '$89' },
      { name: 'Enterprise', price: '$240' },
    ],
    articles: [
      'How we cut deployment time in half',
      'A practical guide to API-first design',
      'Security checklist for growing teams',
    ],
    testimonials: [
      {
        quote: 'We replaced four tools with one and our releases went from monthly to weekly.',
        author: PEOPLE[0]!,
        role: 'CTO, Brightwave',
      },
      {
        quote: 'Setup took an afternoon. The support team answers in minutes, not days.',
        author: PEOPLE[3]!,
        role: 'Head of Ops, Lumen',
      },
      {
        quote: 'Finally a dashboard our whole company actually opens every morning.',
        author: PEOPLE[2]!,
        role: 'Product lead, Orbit',
      },
    ],
    gallery: ['Dashboard', 'Mobile app', 'Reports', 'Integrations', 'Workflows', 'Team spaces'],
    booking: 'Book a live demo',
  },
  healthcare: {
    brand: 'CareWell Clinic',
    hero: {
      eyebrow: 'Care that puts you first',
      title: 'Modern healthcare, close to home',
      lead: 'Book appointments online, meet specialists you can trust and keep your health records in one safe place.',
    },
    offerings: [
      {
        icon: 'heart',
        title: 'General medicine',
        text: 'Check-ups, prevention and follow-up for the whole family.',
      },
      {
        icon: 'calendar',
        title: 'Online booking',
        text: 'Pick a time that suits you and get reminders automatically.',
      },
      {
        icon: 'shield',
        title: 'Private by design',
        text: 'Your medical data is encrypted and only shared with your consent.',
      },
    ],
    stats: [
      { value: '25+', label: 'specialists' },
      { value: '4.9/5', label: 'patient rating' },
      { value: '48h', label: 'average wait' },
    ],
    entity: { one: 'patient', many: 'Patients' },
    kpis: [
      { label: 'Appointments today', value: '64', delta: '+9', up: true },
      { label: 'New patients', value: '128', delta: '+14%', up: true },
      { label: 'No-show rate', value: '3.2%', delta: '-1.1 pt', up: true },
      { label: 'Avg. wait time', value: '11 min', delta: '+2 min', up: false },
    ],
    columns: ['Patient', 'Appointment', 'Status', 'Time'],
    rows: [
      { name: PEOPLE[0]!, detail: 'General check-up', status: 'ok', amount: '09:00' },
      { name: PEOPLE[1]!, detail: 'Cardiology', status: 'pending', amount: '09:30' },
      { name: PEOPLE[2]!, detail: 'Pediatrics', status: 'new', amount: '10:15' },
      { name: PEOPLE[3]!, detail: 'Dermatology', status: 'ok', amount: '11:00' },
      { name: PEOPLE[4]!, detail: 'Physiotherapy', status: 'ok', amount: '11:45' },
    ],
    products: [
      { name: 'Annual check-up', price: '$120' },
      { name: 'Family plan', price: '$39/mo' },
      { name: 'Telehealth visit', price: '$45' },
    ],
    articles: [
      'Five habits for a healthier heart',
      'When to see a specialist',
      'Preparing for your first telehealth visit',
    ],
    testimonials: [
      {
        quote: 'Booking took two minutes and the doctor had already read my history. Impressive.',
        author: PEOPLE[4]!,
        role: 'Patient since 2021',
      },
      {
        quote: 'Kind staff, no waiting room marathon, and results straight to my phone.',
        author: PEOPLE[1]!,
        role: 'Patient',
      },
      {
        quote: 'The reminders alone saved us from missing three appointments this year.',
        author: PEOPLE[2]!,
        role: 'Parent of two',
      },
    ],
    gallery: ['Reception', 'Consultation room', 'Pediatrics', 'Laboratory', 'Physiotherapy', 'Our team'],
    booking: 'Book an appointment',
  },
  finance: {
    brand: 'Ledgerly',
    hero: {
      eyebrow: 'Clarity for your money',
      title: 'Financial decisions, made with confidence',
      lead: 'Real-time insight into cash flow, investments and risk, with advisors who explain every number.',
    },
    offerings: [
      {
        icon: 'trending',
        title: 'Wealth planning',
        text: 'Long-term strategies tailored to your goals and risk profile.',
      },
      {
        icon: 'pie',
        title: 'Portfolio insight',
        text: 'Every asset, every fee and every return in one clear view.',
      },
      {
        icon: 'lock',
        title: 'Bank-grade security',
        text: 'Regulated, audited and protected with multi-factor sign-in.',
      },
    ],
    stats: [
      { value: '$1.2B', label: 'assets advised' },
      { value: '18 yrs', label: 'of experience' },
      { value: '96%', label: 'client retention' },
    ],
    entity: { one: 'client', many: 'Clients' },
    kpis: [
      { label: 'Assets under management', value: '$48.6M', delta: '+3.2%', up: true },
      { label: 'Net inflows (month)', value: '$1.4M', delta: '+18%', up: true },
      { label: 'Portfolio return YTD', value: '7.8%', delta: '+0.6 pt', up: true },
      { label: 'Pending reviews', value: '14', delta: '+3', up: false },
    ],
    columns: ['Client', 'Portfolio', 'Status', 'Balance'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Balanced growth', status: 'ok', amount: '$412,300' },
      { name: PEOPLE[1]!, detail: 'Retirement', status: 'pending', amount: '$268,900' },
      { name: PEOPLE[2]!, detail: 'Conservative', status: 'ok', amount: '$97,450' },
      { name: PEOPLE[3]!, detail: 'Aggressive', status: 'new', amount: '$54,000' },
      { name: PEOPLE[4]!, detail: 'Education fund', status: 'ok', amount: '$38,720' },
    ],
    products: [
      { name: 'Essential', price: '$0' },
      { name: 'Premium advice', price: '$29/mo' },
      { name: 'Private wealth', price: 'Custom' },
    ],
    articles: [
      'Building an emergency fund in 6 steps',
      'What rising rates mean for your savings',
      'Diversification, explained simply',
    ],
    testimonials: [
      {
        quote: 'For the first time I understand where every dollar goes, and why.',
        author: PEOPLE[3]!,
        role: 'Business owner',
      },
      {
        quote: 'Our advisor built a plan that finally lets us save for the kids and retire on time.',
        author: PEOPLE[0]!,
        role: 'Client since 2019',
      },
      {
        quote: 'Clear reports, fair fees and answers the same day.',
        author: PEOPLE[4]!,
        role: 'Finance director',
      },
    ],
    gallery: ['Client portal', 'Reports', 'Mobile app', 'Advisory', 'Markets', 'Events'],
    booking: 'Schedule a consultation',
  },
  education: {
    brand: 'Brightpath Academy',
    hero: {
      eyebrow: 'Learning without limits',
      title: 'Courses that turn curiosity into skills',
      lead: 'Expert teachers, hands-on projects and a flexible schedule that fits around your life.',
    },
    offerings: [
      {
        icon: 'book',
        title: 'Live classes',
        text: 'Small groups with teachers who know your name and your goals.',
      },
      {
        icon: 'award',
        title: 'Certificates',
        text: 'Recognised credentials that employers actually look for.',
      },
      {
        icon: 'users',
        title: 'Mentoring',
        text: 'One-to-one sessions to keep you on track until you graduate.',
      },
    ],
    stats: [
      { value: '12k', label: 'students' },
      { value: '140+', label: 'courses' },
      { value: '92%', label: 'completion rate' },
    ],
    entity: { one: 'student', many: 'Students' },
    kpis: [
      { label: 'Active students', value: '1,284', delta: '+6.5%', up: true },
      { label: 'Course completion', value: '87%', delta: '+3 pt', up: true },
      { label: 'Average grade', value: '8.4', delta: '+0.2', up: true },
      { label: 'Assignments to grade', value: '52', delta: '+11', up: false },
    ],
    columns: ['Student', 'Course', 'Status', 'Progress'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Data Analysis', status: 'ok', amount: '86%' },
      { name: PEOPLE[1]!, detail: 'UX Design', status: 'pending', amount: '42%' },
      { name: PEOPLE[2]!, detail: 'Spanish B2', status: 'ok', amount: '73%' },
      { name: PEOPLE[3]!, detail: 'Web Development', status: 'new', amount: '8%' },
      { name: PEOPLE[4]!, detail: 'Digital Marketing', status: 'ok', amount: '95%' },
    ],
    products: [
      { name: 'Single course', price: '$149' },
      { name: 'All-access', price: '$39/mo' },
      { name: 'Teams', price: 'Custom' },
    ],
    articles: [
      'How to build a study habit that sticks',
      'The skills employers want in 2027',
      'From beginner to portfolio in 12 weeks',
    ],
    testimonials: [
      {
        quote: 'The projects were real, the feedback was honest, and I got the job.',
        author: PEOPLE[1]!,
        role: 'UX Designer, graduate',
      },
      {
        quote: 'I studied after work and never felt behind. The mentors are the secret.',
        author: PEOPLE[2]!,
        role: 'Student',
      },
      {
        quote: 'We trained our whole team in a quarter with measurable results.',
        author: PEOPLE[4]!,
        role: 'L&D manager',
      },
    ],
    gallery: ['Campus', 'Workshops', 'Online classroom', 'Graduation', 'Study spaces', 'Events'],
    booking: 'Book a trial class',
  },
  retail: {
    brand: 'Maison Market',
    hero: {
      eyebrow: 'New season, new favourites',
      title: 'Thoughtfully made, delivered to your door',
      lead: 'Discover pieces you will keep for years, with free returns and delivery in 48 hours.',
    },
    offerings: [
      {
        icon: 'truck',
        title: 'Fast delivery',
        text: 'Free shipping on orders over $50, tracked to your door.',
      },
      { icon: 'tag', title: 'Fair prices', text: 'Quality materials without the luxury mark-up.' },
      { icon: 'smile', title: 'Easy returns', text: '30 days to change your mind, no questions asked.' },
    ],
    stats: [
      { value: '50k+', label: 'happy customers' },
      { value: '4.8/5', label: 'average review' },
      { value: '48h', label: 'delivery' },
    ],
    entity: { one: 'order', many: 'Orders' },
    kpis: [
      { label: 'Revenue today', value: '$6,842', delta: '+14%', up: true },
      { label: 'Orders', value: '184', delta: '+22', up: true },
      { label: 'Conversion rate', value: '3.6%', delta: '+0.3 pt', up: true },
      { label: 'Returns', value: '9', delta: '+2', up: false },
    ],
    columns: ['Customer', 'Order', 'Status', 'Total'],
    rows: [
      { name: PEOPLE[0]!, detail: '#10482 · 3 items', status: 'ok', amount: '$148.00' },
      { name: PEOPLE[1]!, detail: '#10481 · 1 item', status: 'pending', amount: '$59.90' },
      { name: PEOPLE[2]!, detail: '#10480 · 2 items', status: 'new', amount: '$96.50' },
      { name: PEOPLE[3]!, detail: '#10479 · 5 items', status: 'ok', amount: '$231.40' },
      { name: PEOPLE[4]!, detail: '#10478 · 1 item', status: 'ok', amount: '$34.00' },
    ],
    products: [
      { name: 'Linen overshirt', price: '$79' },
      { name: 'Ceramic mug set', price: '$42' },
      { name: 'Canvas tote', price: '$28' },
    ],
    articles: [
      'Our guide to a capsule wardrobe',
      'Meet the makers behind our ceramics',
      'How we choose sustainable materials',
    ],
    testimonials: [
      {
        quote: 'Arrived the next day, beautifully packed, and the quality is even better in person.',
        author: PEOPLE[2]!,
        role: 'Verified buyer',
      },
      {
        quote: 'Returns were effortless. I will definitely order again.',
        author: PEOPLE[3]!,
        role: 'Verified buyer',
      },
      { quote: 'My go-to shop for gifts. Never disappointed.', author: PEOPLE[0]!, role: 'Loyal customer' },
    ],
    gallery: ['New arrivals', 'Home', 'Accessories', 'Gifts', 'Best sellers', 'Lookbook'],
    booking: 'Book a personal shopping session',
  },
  manufacturing: {
    brand: 'Forgeline Industries',
    hero: {
      eyebrow: 'Precision at scale',
      title: 'Engineering partners from prototype to production',
      lead: 'Certified processes, on-time delivery and full traceability for every part we make.',
    },
    offerings: [
      {
        icon: 'tool',
        title: 'Custom fabrication',
        text: 'CNC machining, welding and assembly to your exact specs.',
      },
      { icon: 'package', title: 'Supply chain', text: 'Sourcing, warehousing and just-in-time delivery.' },
      { icon: 'award', title: 'Certified quality', text: 'ISO 9001 processes with full inspection reports.' },
    ],
    stats: [
      { value: '35 yrs', label: 'in business' },
      { value: '98.7%', label: 'on-time delivery' },
      { value: 'ISO 9001', label: 'certified' },
    ],
    entity: { one: 'work order', many: 'Work orders' },
    kpis: [
      { label: 'Units produced (week)', value: '18,420', delta: '+6.2%', up: true },
      { label: 'Overall equipment effectiveness', value: '84%', delta: '+2 pt', up: true },
      { label: 'Defect rate', value: '0.4%', delta: '-0.1 pt', up: true },
      { label: 'Delayed orders', value: '3', delta: '+1', up: false },
    ],
    columns: ['Customer', 'Work order', 'Status', 'Due'],
    rows: [
      { name: PEOPLE[0]!, detail: 'WO-2291 · Brackets', status: 'ok', amount: 'Mar 14' },
      { name: PEOPLE[1]!, detail: 'WO-2290 · Housings', status: 'pending', amount: 'Mar 16' },
      { name: PEOPLE[2]!, detail: 'WO-2288 · Shafts', status: 'ok', amount: 'Mar 18' },
      { name: PEOPLE[3]!, detail: 'WO-2287 · Panels', status: 'new', amount: 'Mar 21' },
      { name: PEOPLE[4]!, detail: 'WO-2285 · Fittings', status: 'ok', amount: 'Mar 22' },
    ],
    products: [
      { name: 'Prototype run', price: 'From $900' },
      { name: 'Small batch', price: 'From $4,500' },
      { name: 'Production', price: 'Quote' },
    ],
    articles: [
      'Design for manufacturability: 7 quick wins',
      'Inside our new CNC line',
      'How traceability reduces recalls',
    ],
    testimonials: [
      {
        quote: 'They caught a design issue before production and saved us weeks.',
        author: PEOPLE[3]!,
        role: 'Engineering manager',
      },
      {
        quote: 'Consistent quality across 40,000 parts. That is rare.',
        author: PEOPLE[1]!,
        role: 'Procurement lead',
      },
      {
        quote: 'Transparent lead times and they hit every single one.',
        author: PEOPLE[4]!,
        role: 'Operations director',
      },
    ],
    gallery: ['CNC line', 'Assembly', 'Quality lab', 'Warehouse', 'Finished parts', 'Our engineers'],
    booking: 'Request a quote',
  },
  realEstate: {
    brand: 'Keystone Homes',
    hero: {
      eyebrow: 'Find the place you belong',
      title: 'Homes you will love, agents you can trust',
      lead: 'Browse verified listings, book viewings online and get expert advice from offer to keys.',
    },
    offerings: [
      { icon: 'home', title: 'Buy', text: 'Curated listings with honest photos, floor plans and prices.' },
      { icon: 'tag', title: 'Sell', text: 'Free valuation and a marketing plan that sells faster.' },
      {
        icon: 'briefcase',
        title: 'Rent & manage',
        text: 'Tenant screening, contracts and maintenance handled.',
      },
    ],
    stats: [
      { value: '1,800+', label: 'homes sold' },
      { value: '21 days', label: 'average sale time' },
      { value: '4.9/5', label: 'client rating' },
    ],
    entity: { one: 'listing', many: 'Listings' },
    kpis: [
      { label: 'Active listings', value: '142', delta: '+8', up: true },
      { label: 'Viewings this week', value: '86', delta: '+19%', up: true },
      { label: 'Offers received', value: '23', delta: '+5', up: true },
      { label: 'Days on market', value: '27', delta: '+3', up: false },
    ],
    columns: ['Client', 'Property', 'Status', 'Price'],
    rows: [
      { name: PEOPLE[0]!, detail: '3-bed townhouse · Riverside', status: 'ok', amount: '$485,000' },
      { name: PEOPLE[1]!, detail: '2-bed apartment · Centre', status: 'pending', amount: '$312,000' },
      { name: PEOPLE[2]!, detail: 'Family home · Oakwood', status: 'new', amount: '$640,000' },
      { name: PEOPLE[3]!, detail: 'Studio · Old Town', status: 'ok', amount: '$189,000' },
      { name: PEOPLE[4]!, detail: 'Penthouse · Harbour', status: 'ok', amount: '$1,150,000' },
    ],
    products: [
      { name: 'Riverside townhouse', price: '$485,000' },
      { name: 'Harbour penthouse', price: '$1.15M' },
      { name: 'Oakwood family home', price: '$640,000' },
    ],
    articles: [
      'First-time buyer? Start here',
      'Staging tips that add real value',
      'Neighbourhood guide: Riverside',
    ],
    testimonials: [
      {
        quote: 'We found our home in two weekends. The viewings were perfectly organised.',
        author: PEOPLE[2]!,
        role: 'Home buyer',
      },
      {
        quote: 'Sold above asking in 12 days. Clear advice at every step.',
        author: PEOPLE[0]!,
        role: 'Seller',
      },
      {
        quote: 'They manage our three rentals and we simply never have to worry.',
        author: PEOPLE[3]!,
        role: 'Landlord',
      },
    ],
    gallery: ['Living room', 'Kitchen', 'Garden', 'Bedroom', 'Terrace', 'Neighbourhood'],
    booking: 'Book a viewing',
  },
  hospitality: {
    brand: 'Casa Aurora',
    hero: {
      eyebrow: 'Fresh, seasonal, unforgettable',
      title: 'A table worth coming back to',
      lead: 'Seasonal dishes, warm service and a room that feels like home. Reserve your table in seconds.',
    },
    offerings: [
      { icon: 'coffee', title: 'Seasonal menu', text: 'Local produce, cooked simply and served generously.' },
      {
        icon: 'calendar',
        title: 'Easy reservations',
        text: 'Choose your time online and get an instant confirmation.',
      },
      {
        icon: 'star',
        title: 'Private events',
        text: 'Birthdays, dinners and celebrations for up to 60 guests.',
      },
    ],
    stats: [
      { value: '4.8/5', label: 'guest rating' },
      { value: '15 yrs', label: 'of hospitality' },
      { value: '60', label: 'seats' },
    ],
    entity: { one: 'reservation', many: 'Reservations' },
    kpis: [
      { label: 'Covers tonight', value: '112', delta: '+18', up: true },
      { label: 'Occupancy', value: '86%', delta: '+7 pt', up: true },
      { label: 'Average ticket', value: '$48', delta: '+$3', up: true },
      { label: 'Cancellations', value: '4', delta: '+1', up: false },
    ],
    columns: ['Guest', 'Reservation', 'Status', 'Time'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Table for 2 · Terrace', status: 'ok', amount: '19:30' },
      { name: PEOPLE[1]!, detail: 'Table for 6 · Birthday', status: 'pending', amount: '20:00' },
      { name: PEOPLE[2]!, detail: 'Table for 4', status: 'ok', amount: '20:15' },
      { name: PEOPLE[3]!, detail: 'Table for 2 · Window', status: 'new', amount: '21:00' },
      { name: PEOPLE[4]!, detail: 'Tasting menu for 3', status: 'ok', amount: '21:30' },
    ],
    products: [
      { name: 'Tasting menu', price: '$65' },
      { name: 'Gift card', price: '$50' },
      { name: 'Cooking class', price: '$90' },
    ],
    articles: [
      'What is in season this month',
      'Behind the pass with our head chef',
      'Pairing wine with spring dishes',
    ],
    testimonials: [
      {
        quote: 'Every dish was a small celebration. We have already booked our anniversary here.',
        author: PEOPLE[0]!,
        role: 'Guest',
      },
      {
        quote: 'Reserving online took seconds, and the table was ready the moment we arrived.',
        author: PEOPLE[3]!,
        role: 'Regular guest',
      },
      {
        quote: 'They hosted our team dinner for 40 flawlessly.',
        author: PEOPLE[4]!,
        role: 'Event organiser',
      },
    ],
    gallery: ['Dining room', 'Terrace', 'Signature dish', 'The kitchen', 'Wine cellar', 'Private room'],
    booking: 'Reserve a table',
  },
  nonprofit: {
    brand: 'Common Ground',
    hero: {
      eyebrow: 'Together we go further',
      title: 'Every contribution changes a life',
      lead: 'We fund education, clean water and local jobs. See exactly where your support goes.',
    },
    offerings: [
      { icon: 'heart', title: 'Donate', text: 'One-off or monthly gifts, with a receipt for your taxes.' },
      { icon: 'users', title: 'Volunteer', text: 'Join a local team or lend your skills remotely.' },
      { icon: 'globe', title: 'Our programmes', text: 'Projects in 14 communities, reported transparently.' },
    ],
    stats: [
      { value: '38,000', label: 'people reached' },
      { value: '92%', label: 'goes to programmes' },
      { value: '14', label: 'communities' },
    ],
    entity: { one: 'donor', many: 'Donors' },
    kpis: [
      { label: 'Raised this month', value: '$42,380', delta: '+16%', up: true },
      { label: 'Monthly donors', value: '1,204', delta: '+58', up: true },
      { label: 'Volunteer hours', value: '3,410', delta: '+9%', up: true },
      { label: 'Lapsed donors', value: '27', delta: '+4', up: false },
    ],
    columns: ['Donor', 'Campaign', 'Status', 'Amount'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Clean water 2027', status: 'ok', amount: '$250' },
      { name: PEOPLE[1]!, detail: 'School meals', status: 'new', amount: '$40/mo' },
      { name: PEOPLE[2]!, detail: 'Emergency fund', status: 'ok', amount: '$1,000' },
      { name: PEOPLE[3]!, detail: 'School meals', status: 'pending', amount: '$25/mo' },
      { name: PEOPLE[4]!, detail: 'Local jobs', status: 'ok', amount: '$500' },
    ],
    products: [
      { name: 'Feed a class for a week', price: '$35' },
      { name: 'A water filter', price: '$80' },
      { name: 'Monthly supporter', price: '$15/mo' },
    ],
    articles: [
      'A year of clean water in San Isidro',
      'Meet the volunteers behind our school meals',
      'Our 2026 impact report',
    ],
    testimonials: [
      {
        quote: 'I can see every project my donation funds. That transparency keeps me giving.',
        author: PEOPLE[1]!,
        role: 'Monthly donor',
      },
      { quote: 'Volunteering here gave my weekends a purpose.', author: PEOPLE[2]!, role: 'Volunteer' },
      {
        quote: 'A partner that delivers and reports honestly.',
        author: PEOPLE[4]!,
        role: 'Foundation officer',
      },
    ],
    gallery: ['Community', 'Clean water', 'School meals', 'Volunteers', 'Workshops', 'Celebrations'],
    booking: 'Sign up to volunteer',
  },
  other: {
    brand: 'Studio North',
    hero: {
      eyebrow: 'Built around your customers',
      title: 'Everything your customers need, in one place',
      lead: 'A fast, friendly experience that explains what you do, builds trust and turns visitors into clients.',
    },
    offerings: [
      { icon: 'star', title: 'Quality service', text: 'Experienced people who care about the details.' },
      { icon: 'clock', title: 'On time', text: 'Clear timelines and updates at every step.' },
      {
        icon: 'smile',
        title: 'Happy clients',
        text: 'Hundreds of customers who come back and recommend us.',
      },
    ],
    stats: [
      { value: '500+', label: 'clients served' },
      { value: '4.9/5', label: 'satisfaction' },
      { value: '10 yrs', label: 'of experience' },
    ],
    entity: { one: 'client', many: 'Clients' },
    kpis: [
      { label: 'Revenue this month', value: '$28,400', delta: '+9.8%', up: true },
      { label: 'New clients', value: '46', delta: '+12', up: true },
      { label: 'Satisfaction', value: '96%', delta: '+1 pt', up: true },
      { label: 'Open requests', value: '18', delta: '+4', up: false },
    ],
    columns: ['Client', 'Project', 'Status', 'Value'],
    rows: [
      { name: PEOPLE[0]!, detail: 'Onboarding', status: 'ok', amount: '$4,200' },
      { name: PEOPLE[1]!, detail: 'Consulting', status: 'pending', amount: '$1,800' },
      { name: PEOPLE[2]!, detail: 'Retainer', status: 'ok', amount: '$2,500' },
      { name: PEOPLE[3]!, detail: 'Workshop', status: 'new', amount: '$900' },
      { name: PEOPLE[4]!, detail: 'Annual plan', status: 'ok', amount: '$12,000' },
    ],
    products: [
      { name: 'Basic', price: '$49' },
      { name: 'Professional', price: '$129' },
      { name: 'Premium', price: '$299' },
    ],
    articles: [
      'Five questions to ask before you hire',
      'How we work, step by step',
      'Client story: doubling repeat business',
    ],
    testimonials: [
      {
        quote: 'Professional, quick and genuinely pleasant to work with.',
        author: PEOPLE[0]!,
        role: 'Client',
      },
      { quote: 'They understood what we needed better than we did.', author: PEOPLE[3]!, role: 'Founder' },
      {
        quote: 'Clear pricing and zero surprises. Highly recommended.',
        author: PEOPLE[2]!,
        role: 'Operations manager',
      },
    ],
    gallery: ['Our work', 'The studio', 'Projects', 'Behind the scenes', 'Events', 'Our team'],
    booking: 'Book a call',
  },
};
